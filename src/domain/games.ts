// The games this service offers. Adding a game means adding its module here; the
// platform knows nothing else about it.
import { withChanceParty } from './chance-party.ts';
import type { Command, GameEvent, GameModule } from './contract.ts';
import { withLifecycle } from './lifecycle.ts';
import { fackelUndKeule } from './fackel-und-keule/index.ts';
import { mistkaefer } from './mistkaefer/index.ts';
import { pechvogel } from './pechvogel/index.ts';
import { porcaMiseria } from './porca-miseria/index.ts';
import { withPositions } from './positions.ts';

// The platform handles every game through the contract alone, so their specific
// option, state and view types are erased here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyGame = GameModule<any, any, Command, GameEvent, unknown>;

// Each waits for chance when a supplied game's rules need an outcome (chance-party.ts),
// may start from a described position (positions.ts), and may end by a resignation, an abort or an expiry (lifecycle.ts). Pechvogel's turns
// and Mistkäfer have no time limit in their rules: they get the lifecycle's turn clock;
// Fackel+Keule (turnSeconds) and Porca Miseria (revealMs, windowMs) time their own.
const turnClock = new Set(['pechvogel', 'mistkaefer']);
export const games: readonly AnyGame[] = [pechvogel, fackelUndKeule, mistkaefer, porcaMiseria].map((game) =>
  withLifecycle(withChanceParty(withPositions(game as AnyGame)), { turnClock: turnClock.has(game.type) }),
);

const byType = new Map(games.map((g) => [g.type, g]));

export const findGame = (type: string): AnyGame | undefined => byType.get(type);
