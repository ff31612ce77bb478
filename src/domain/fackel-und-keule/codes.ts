// Every rule-violation code Fackel+Keule returns. Stable: clients switch on them.
export const codes = {
  /** The game needs 3 to 5 seats. */
  playerCount: 'fackel-und-keule/player-count',
  /** The game is over; nothing more can be sent. */
  gameOver: 'fackel-und-keule/game-over',
  /** Seat commands come from seats; the system only sends `timeout`. */
  notASeat: 'fackel-und-keule/not-a-seat',
  /** `timeout` is the system's command; a seat cannot send it. */
  systemOnly: 'fackel-und-keule/system-only',
  /** The command does not fit the current phase (e.g. taking prey while choosing). */
  wrongPhase: 'fackel-und-keule/wrong-phase',
  /** Another seat acts now (e.g. another player's turn to take prey). */
  notYourTurn: 'fackel-und-keule/not-your-turn',
  /** The seat has already committed its cards this round; a choice is final. */
  alreadyChosen: 'fackel-und-keule/already-chosen',
  /** Play at least 1 card and at most the table's maximum for the player count. */
  playCount: 'fackel-und-keule/play-count',
  /** A card named is not in the seat's hand. */
  notInHand: 'fackel-und-keule/not-in-hand',
  /** The same card is named twice. */
  duplicateCard: 'fackel-und-keule/duplicate-card',
  /** A prey take must be exactly the taker's share (2 first, then 1, capped by what is left). */
  takeCount: 'fackel-und-keule/take-count',
  /** The chips asked for are not (all) left on the animal. */
  preyUnavailable: 'fackel-und-keule/prey-unavailable',
  /** The fight winner may rob only one of the players with the fewest clubs. */
  notALoser: 'fackel-und-keule/not-a-loser',
  /** That player holds no chip of the kind asked for (skulls cannot be taken). */
  chipUnavailable: 'fackel-und-keule/chip-unavailable',
  /** Skulls are the fight winners' trophies: a winner cannot rob one. */
  skullNotRobbable: 'fackel-und-keule/skull-not-robbable',
  /** The fight winner robs exactly one chip. */
  robCount: 'fackel-und-keule/rob-count',
  /** Discard exactly the cards above the hand limit. */
  discardCount: 'fackel-und-keule/discard-count',
  /** No time limit is set (turnSeconds 0) or nobody is waited for, so a timeout is never due. */
  noDeadline: 'fackel-und-keule/no-deadline',
  /** timeout: the deadline has not passed yet. */
  tooEarly: 'fackel-und-keule/too-early',
  /** The deadline has passed: the table acts for the seat (the system's timeout). */
  tooLate: 'fackel-und-keule/too-late',
} as const;
