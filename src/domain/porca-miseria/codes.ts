// Every violation code this game returns. Stable: clients switch on them.
export const codes = {
  /** The player count is outside 3..8. */
  playerCount: 'porca-miseria/player-count',
  /** The game has not started yet (no opening event). */
  notStarted: 'porca-miseria/not-started',
  /** The game is over; nothing more is accepted. */
  gameOver: 'porca-miseria/game-over',
  /** A seat sent `timeout`, which only the server's scheduler may send. */
  systemOnly: 'porca-miseria/system-only',
  /** The system actor sent a player's command. */
  seatOnly: 'porca-miseria/seat-only',
  /** The seat number does not exist in this game. */
  unknownSeat: 'porca-miseria/unknown-seat',
  /** `timeout` arrived before the current deadline. */
  tooEarly: 'porca-miseria/too-early',
  /** A player's command arrived at or after the current deadline; the window is closed. */
  tooLate: 'porca-miseria/too-late',
  /** `timeout` in a window without a deadline (revealMs or windowMs 0): nothing times out. */
  noDeadline: 'porca-miseria/no-deadline',
  /** `reveal` while a card is already face up. */
  cardAlreadyRevealed: 'porca-miseria/card-already-revealed',
  /** `reveal` from a seat that is not the starting player. */
  notStartingPlayer: 'porca-miseria/not-starting-player',
  /** `grab` while no symbol card is face up. */
  noSymbolCard: 'porca-miseria/no-symbol-card',
  /** `slap` while no touch card is face up. */
  noTouchCard: 'porca-miseria/no-touch-card',
  /** `pass` while no card is face up. */
  nothingToPass: 'porca-miseria/nothing-to-pass',
  /** The seat already passed in this action. */
  alreadyPassed: 'porca-miseria/already-passed',
  /** The target card is already held by a player (maybe the sender) in this action. */
  targetTaken: 'porca-miseria/target-taken',
  /** The seat has already put both hands on the stack of hands. */
  noHandsLeft: 'porca-miseria/no-hands-left',
} as const;
