// What the event store keeps, as the rest of the service sees it: a game's record with
// its seats, a stored event, and what an append asks for and comes to. Kept apart from
// the store itself so that the group commit, which writes appends, and the store, which
// hands them to it, both depend on these types instead of on each other.
import type { GameEvent } from '../domain/contract.ts';

export type GameStatus = 'open' | 'running' | 'finished';
export type ChanceMode = 'server' | 'supplied';
export type SeedChosenBy = 'creator' | 'server';

export interface SeatRecord {
  readonly seat: number;
  readonly name: string | null;
  readonly tokenHash: string | null;
  readonly joinedAt: Date | null;
  /** The server-side bot playing the seat; null for people. */
  readonly bot: string | null;
  /** When its person first used its token on the game, or joined it (docs/lifecycle.md). */
  readonly arrivedAt: Date | null;
}

/** The longest think time a game may ask of its bots (ms): POST /games, MCP's
 * create_game and an imported archive check against this one bound. */
export const maxBotThinkMs = 10_000;

export interface GameRecord {
  readonly id: string;
  readonly type: string;
  readonly rulesVersion: string;
  readonly options: unknown;
  readonly seatCount: number;
  readonly chanceMode: ChanceMode;
  readonly seed: string;
  /** The published commitment: SHA-256 of `${seedNonce}:${seed}` (of the seed alone
   * when seedNonce is null, for games created before nonces). */
  readonly seedHash: string;
  /** Random, kept secret with the seed until the game ends; null for older games. */
  readonly seedNonce: string | null;
  /** Who chose the seed; null for games created before this was recorded. */
  readonly seedChosenBy: SeedChosenBy | null;
  /** How long its server bots think before each move (ms); null: the server's BOT_THINK_MS. */
  readonly botThinkMs: number | null;
  readonly refereeTokenHash: string;
  readonly status: GameStatus;
  readonly version: number;
  readonly deadline: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly finishedAt: Date | null;
  /** When a game that waited for its people started; null for one that started when
   * created (and while it waits: status open). */
  readonly startedAt: Date | null;
  /** The game POST /games/{id}/rematch created from this one. */
  readonly rematchId: string | null;
  /** The organizer whose API key created it; null for anonymous games. */
  readonly organizerId: string | null;
  /** The tournament and round whose table this game is. */
  readonly tournament: { readonly id: string; readonly round: number } | null;
  readonly seats: readonly SeatRecord[];
}

export interface StoredEvent {
  readonly seq: number;
  readonly event: GameEvent;
  readonly actor: string;
  readonly at: Date;
}

/** A game's state folded up to `version` by the rules `rulesVersion`, kept so that
 * loading a long game reads only the events after it. A cache of the log: the store
 * keeps the newest one per game and never interprets the state. */
export interface StoredSnapshot {
  readonly version: number;
  readonly rulesVersion: string;
  readonly state: unknown;
}

export interface AppendRequest {
  readonly gameId: string;
  readonly expectedVersion: number;
  readonly events: readonly GameEvent[];
  readonly actor: string;
  readonly at: Date;
  readonly commandId: string | null;
  readonly status: GameStatus;
  readonly deadline: Date | null;
  readonly idempotency: { key: string; requestHash: string; response: unknown } | null;
  /** Appends decided one on top of another before the first had committed share a
   * chain: once one of them fails, the rest are refused without being written. */
  readonly chain?: AppendChain;
}

/** See AppendRequest.chain. Broken by the store; whoever decides the next append reads it. */
export class AppendChain {
  private brokenFlag = false;
  get broken(): boolean {
    return this.brokenFlag;
  }
  break(): void {
    this.brokenFlag = true;
  }
}

export type AppendOutcome = 'appended' | 'conflict';

export interface GameFilter {
  readonly type?: string;
  readonly status?: GameStatus;
  readonly organizerId?: string;
  readonly tournamentId?: string;
  readonly round?: number;
  /** A tournament player id seated at the game. */
  readonly player?: string;
  readonly finishedAfter?: Date;
  readonly limit: number;
  /** Opaque cursor from a previous page: the last game's (createdAt, id). */
  readonly after?: { createdAt: Date; id: string };
}

/** The seats an open game waits for before it starts: people who hold their seat and
 * have not arrived, at a table with a server bot, which would otherwise play against
 * them (docs/lifecycle.md). A table of people only starts once its seats are taken, as
 * it always did: its people play each other, and API clients (the shared benchmark
 * harness among them) create such games and play one seat at once. Bots and open seats
 * are never waited for (open seats keep the game open by themselves); neither are a
 * tournament's tables, whose clock runs from the pairing (its no-show rule deals with
 * absence), nor a supplied-chance game, which a referee records. Empty once the game
 * started. */
export const waitingFor = (record: GameRecord): number[] =>
  record.status !== 'open' || record.tournament !== null || record.chanceMode === 'supplied' || !record.seats.some((s) => s.bot !== null)
    ? []
    : record.seats.filter((s) => s.bot === null && s.tokenHash !== null && s.arrivedAt === null).map((s) => s.seat);
