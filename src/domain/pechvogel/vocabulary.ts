// The closed sets of Pechvogel, as tuples with derived types.

/** The numbers on the dice, which are also the values of the score markers. */
export const NUMBERS = [3, 4, 5, 6, 7] as const;
export type DieNumber = (typeof NUMBERS)[number];

export const RAVEN = 'raven' as const;

/** Every face of a die: sides 3 to 7 and a raven. */
export const FACES = [...NUMBERS, RAVEN] as const;
export type Face = (typeof FACES)[number];

export const isNumber = (face: Face): face is DieNumber => face !== RAVEN;

/** Where the turn is. `ending` is transient: decide always follows it with TurnEnded
 * in the same command, so no client ever sees it at rest. */
export const PHASES = ['throw', 'chooseTarget', 'react', 'claim', 'ending', 'over'] as const;
export type Phase = (typeof PHASES)[number];
