// The races of Porca Miseria: the first grab of a target card holds it, the first slap
// is the bottom hand. Both are recorded by their first event with `receivedAt`.
import type { RaceRules } from '../race-rules.ts';
import type { PorcaEvent } from './events.ts';

export const porcaMiseriaRaces: RaceRules = {
  commands: ['grab', 'slap'],
  accepted: (e) => {
    const event = e as PorcaEvent;
    if (event.type === 'TargetGrabbed') return { seat: event.seat, command: { type: 'grab', target: event.target }, receivedAt: event.receivedAt };
    if (event.type === 'HandSlapped') return { seat: event.seat, command: { type: 'slap' }, receivedAt: event.receivedAt };
    return null;
  },
};
