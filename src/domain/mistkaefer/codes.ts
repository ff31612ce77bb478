// Stable violation codes of Mistkäfer. Clients switch on them; never rename.
export const codes = {
  /** Mistkäfer is for 2 to 4 players. */
  playerCount: 'mistkaefer/player-count',
  /** The game has not started yet or is over. */
  notRunning: 'mistkaefer/not-running',
  /** Only the active seat acts; Mistkäfer has no deadlines, so the system never acts either. */
  notYourTurn: 'mistkaefer/not-your-turn',
  /** The command does not fit the phase (e.g. placing before rolling). */
  wrongPhase: 'mistkaefer/wrong-phase',
  /** The supply holds no dice of that colour. */
  noDiceLeft: 'mistkaefer/no-dice-left',
  /** More dice than the supply holds of that colour, or more than 4. */
  tooManyDice: 'mistkaefer/too-many-dice',
  /** No rolled die shows that value. */
  valueNotRolled: 'mistkaefer/value-not-rolled',
  /** The value is not higher than the last die of the row. */
  valueNotHigher: 'mistkaefer/value-not-higher',
  /** No stealing in the 1st round. */
  firstRound: 'mistkaefer/no-stealing-in-first-round',
  /** That seat's row does not end with an identical die, or it is yourself, or named twice. */
  cannotSteal: 'mistkaefer/cannot-steal',
  /** That bonus is not pending. */
  bonusNotPending: 'mistkaefer/bonus-not-pending',
  /** stealChip needs a victim who holds a chip (null only when nobody has one). */
  badVictim: 'mistkaefer/bad-victim',
} as const;
