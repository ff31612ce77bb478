// The drawing module of each game type, by the type's id in the catalog.
import { fackelUndKeule } from './fackel-und-keule.tsx';
import type { GameUi } from './game.ts';
import { mistkaefer } from './mistkaefer.tsx';
import { pechvogel } from './pechvogel.tsx';
import { porcaMiseria } from './porca-miseria.tsx';

const uis: Readonly<Record<string, GameUi>> = {
  pechvogel: pechvogel as GameUi,
  'fackel-und-keule': fackelUndKeule as GameUi,
  mistkaefer: mistkaefer as GameUi,
  'porca-miseria': porcaMiseria as GameUi,
};

export const uiFor = (type: string): GameUi | undefined => uis[type];
