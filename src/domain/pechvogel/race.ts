// The races of Pechvogel's reaction window: the first opponent to frustrate starts the
// frustration (the others may only join, and are repaid in the order they joined), and
// a frustration started first refuses the player's reduce, a reduce first ends the
// window. Their events carry no time of their own: the log's `at` is it.
import type { RaceRules } from '../race-rules.ts';
import type { PechvogelEvent } from './events.ts';

export const pechvogelRaces: RaceRules = {
  commands: ['frustrate', 'reduce'],
  accepted: (e) => {
    const event = e as PechvogelEvent;
    if (event.type === 'FrustrationStarted' || event.type === 'FrustrationJoined') return { seat: event.seat, command: { type: 'frustrate' }, receivedAt: null };
    if (event.type === 'FrustrationReduced') return { seat: event.seat, command: { type: 'reduce' }, receivedAt: null };
    return null;
  },
};
