// Failures the service reports to a client. Each has a stable code; the HTTP layer
// alone decides the status (src/routes/problem.ts). Rule violations keep the game's
// own code (e.g. `pechvogel/not-your-turn`).
export const serviceCodes = {
  /** No game with that id. */
  gameNotFound: 'game/not-found',
  /** The catalog has no game of that type. */
  unknownGameType: 'game/unknown-type',
  /** The options or seats do not fit the game (player count, option values). */
  invalidSetup: 'game/invalid-setup',
  /** The game is not running (still open for seats, or over). */
  notRunning: 'game/not-running',
  /** The game is still running; its full replay is not public yet. */
  notFinished: 'game/not-finished',
  /** start: the game started already (or ended). */
  notOpen: 'game/not-open',
  /** start: seats are still open; the game starts once they are taken. */
  seatsOpen: 'game/seats-open',
  /** That seat is already taken, or there is no such seat. */
  seatUnavailable: 'game/seat-unavailable',
  /** The request needs a seat or referee token. */
  tokenRequired: 'auth/token-required',
  /** The token does not belong to this game, or may not act as that seat. */
  forbidden: 'auth/forbidden',
  /** The command does not match the game's command schema. */
  invalidCommand: 'command/invalid',
  /** expectedVersion is not the game's current version. */
  staleVersion: 'command/stale-version',
  /** Another command won the race for this version; retry with the new version. */
  conflict: 'command/conflict',
  /** The Idempotency-Key was used before for a different command. */
  idempotencyKeyReused: 'command/idempotency-key-reused',
  /** Chance outcomes may only be supplied by the referee of a supplied-chance game. */
  outcomesNotAllowed: 'chance/outcomes-not-allowed',
  /** The Authorization header holds something shaped like an API key that is no key of ours. */
  keyInvalid: 'auth/key-invalid',
  /** The API key has expired. */
  keyExpired: 'auth/key-expired',
  /** The API key was revoked. */
  keyRevoked: 'auth/key-revoked',
  /** The route needs an organizer's API key. */
  keyRequired: 'auth/key-required',
  /** The API key lacks the scope this needs; `scope` names it. */
  scopeMissing: 'auth/scope-missing',
  /** No such organizer, or no such key of this organizer. */
  organizerNotFound: 'organizer/not-found',
  keyNotFound: 'organizer/key-not-found',
  /** No such tournament (or not one of this organizer's). */
  tournamentNotFound: 'tournament/not-found',
  /** The format or settings do not fit the game or the players. */
  invalidFormat: 'tournament/invalid-format',
  /** A player id that is not registered in this tournament. */
  unknownPlayer: 'tournament/unknown-player',
  /** The tournament token belongs to no player of this tournament. */
  unknownToken: 'tournament/unknown-token',
  /** The round was paired already (or is not the next one). */
  roundAlreadyPaired: 'tournament/round-already-paired',
  /** The current round still has tables playing. */
  roundInProgress: 'tournament/round-in-progress',
  /** The players cannot be paired for this round under the format. */
  pairingImpossible: 'tournament/pairing-impossible',
  /** The tournament is over (or not started) for this command. */
  tournamentFinished: 'tournament/finished',
  /** The player already withdrew. */
  playerWithdrawn: 'tournament/player-withdrawn',
  /** The game is not a table of this tournament. */
  gameNotInTournament: 'tournament/game-not-in-tournament',
  /** An imported archive does not replay, or its ids exist here already. */
  invalidArchive: 'tournament/invalid-archive',
  /** A player with that externalId is registered in the tournament already. */
  duplicateExternalId: 'tournament/duplicate-external-id',
  /** Self-registration is not open (closed, past its closing time, or the tournament has started a knockout or ended). */
  registrationClosed: 'tournament/registration-closed',
  /** Self-registration has as many entries as its capacity. */
  registrationFull: 'tournament/registration-full',
  /** No tournament has this join code (or its registration link was replaced). */
  joinCodeUnknown: 'tournament/join-code-unknown',
  /** No such entry (self-registration) in this tournament. */
  entryNotFound: 'tournament/entry-not-found',
  /** The entry was decided already (approved, refused or removed) in another way. */
  entryDecided: 'tournament/entry-decided',
  /** Check-in is not open (not opened, past its closing time, or round 1 was paired and the player is not absent). */
  checkInClosed: 'tournament/check-in-closed',
  /** The table's game is still running: adjudicate it rather than correct it. */
  tableRunning: 'tournament/table-running',
  /** The table's game is over: correct its result rather than adjudicate it. */
  tableFinished: 'tournament/table-finished',
  /** No such webhook of this organizer. */
  webhookNotFound: 'webhook/not-found',
  /** The webhook's URL is not one the server delivers to (not http(s), credentials in it, or a loopback or private address). */
  webhookUrlRefused: 'webhook/url-refused',
  /** The organizer has as many webhooks as allowed. */
  webhookLimit: 'webhook/too-many',
  /** The request is malformed (body, query, parameters). */
  validation: 'request/invalid',
} as const;

export type ServiceCode = (typeof serviceCodes)[keyof typeof serviceCodes];

export class ServiceError extends Error {
  constructor(
    /** A ServiceCode, a game's rule code, or a chance code. */
    readonly code: string,
    message: string,
    /** Extra members for the problem document, e.g. `currentVersion`. */
    readonly extra: Record<string, unknown> = {},
    /** A rule violation (the game said no) rather than a service failure. */
    readonly kind: 'service' | 'rule' | 'chance' = 'service',
  ) {
    // A refusal is an answer to the client, not a fault of ours: no stack to read, and
    // capturing one cost more than the rest of a lost race's refusal.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'ServiceError';
  }
}
