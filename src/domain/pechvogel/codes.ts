// Every violation code of Pechvogel. Stable: clients switch on them.
export const CODES = {
  /** Setup: fewer than 2 or more than 5 seats. */
  playerCount: 'pechvogel/player-count',
  /** Setup: the firstSeat option names no seat. */
  firstSeat: 'pechvogel/first-seat',
  /** The game has ended; nothing more may be done. */
  gameOver: 'pechvogel/game-over',
  /** The acting seat does not exist in this game. */
  unknownSeat: 'pechvogel/unknown-seat',
  /** A seat command came from the system, or `timeout` from a seat. */
  wrongActor: 'pechvogel/wrong-actor',
  /** Only the player whose turn it is may do this. */
  notYourTurn: 'pechvogel/not-your-turn',
  /** The command does not fit the current phase of the turn. */
  wrongPhase: 'pechvogel/wrong-phase',
  /** chooseTarget named a number that is not on the first throw. */
  targetNotRolled: 'pechvogel/target-not-rolled',
  /** Reduce frustration was already used this turn. */
  alreadyReduced: 'pechvogel/already-reduced',
  /** The seat holds no frustration to return or to put on the board. */
  noFrustration: 'pechvogel/no-frustration',
  /** The player whose turn it is cannot frustrate themselves. */
  ownTurn: 'pechvogel/own-turn',
  /** The player was already frustrated this turn. */
  alreadyFrustrated: 'pechvogel/already-frustrated',
  /** Opponents are already frustrating this throw; it will be rerolled anyway. */
  frustrationUnderWay: 'pechvogel/frustration-under-way',
  /** The seat already passed or joined in this reaction window. */
  alreadyDecided: 'pechvogel/already-decided',
  /** The seat has nothing to decide in this reaction window. */
  notReacting: 'pechvogel/not-reacting',
  /** takeFromMiddle: no marker of the target number is in the middle. */
  notInMiddle: 'pechvogel/not-in-middle',
  /** steal: that opponent holds no marker of the target number (or is the player). */
  nothingToSteal: 'pechvogel/nothing-to-steal',
  /** steal: the marker to return to the box is not in the middle. */
  returnNotInMiddle: 'pechvogel/return-not-in-middle',
  /** timeout: nothing is waiting on a deadline. */
  noDeadline: 'pechvogel/no-deadline',
  /** timeout: the deadline has not passed yet. */
  tooEarly: 'pechvogel/too-early',
} as const;
