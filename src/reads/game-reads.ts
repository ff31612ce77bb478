// src/reads/ is the read side: game summaries and lists, views at any version, the
// event log and the replay. It may import src/domain, src/events, src/state,
// src/access and src/errors.ts, and never writes.
//
// Every read of a game: summaries, the game list, views at any version, pages of the
// event log and the replay, each as the caller's token allows them to see it.
import { createHash } from 'node:crypto';
import type { GameEvent, GameResult, Viewer } from '../domain/contract.ts';
import { ServiceError, serviceCodes } from '../errors.ts';
import { allowedViewer, resolvePrincipal, type Principal } from '../access/principal.ts';
import type { GameFilter, GameRecord } from '../events/records.ts';
import type { EventStore } from '../events/store.ts';
import type { LatestStates, LoadedGame } from '../state/latest-states.ts';
import type { PastStates } from '../state/past-states.ts';
import { atVersion, describeVersion, redactAll, type GameSnapshot, type VersionedEvent } from '../state/snapshot.ts';
import { encodeCursor, endOf, summarize, type GameEnd } from './game-summary.ts';
import { raceLog, type RaceEntry } from './race-log.ts';

export interface EventPage {
  readonly gameType: string;
  readonly events: readonly (VersionedEvent & { actor: string; at: string })[];
  readonly version: number;
  readonly next: number | null;
}

const endOfLoaded = (loaded: LoadedGame): GameEnd => endOf(loaded.game, loaded.state);

/** A conditional read asks, once it knows what it will answer and before it builds the
 * answer, whether the caller holds it already. `tag` names the answer when the game is
 * finished, which never changes again (the game, its final version and rules, what was
 * asked and through whose eyes); it is null while the game runs, and for a tournament's
 * table, whose result the organizer may still correct. `revalidate`: the tagged answer
 * may still change (a finished game's summary until its rematch is made), so a client
 * asks again each time and gets 304 while it holds the same. True: the read returns
 * `unchanged` instead of the answer. */
export type Holds = (tag: string | null, revalidate?: boolean) => boolean;
export const unchanged: unique symbol = Symbol('unchanged');
export type Unchanged = typeof unchanged;

const tagOf = (loaded: LoadedGame, asked: readonly unknown[]): string | null =>
  loaded.record.status !== 'finished' || loaded.record.tournament !== null
    ? null
    : createHash('sha256').update(JSON.stringify([loaded.record.id, loaded.version, loaded.record.rulesVersion, ...asked])).digest('base64url').slice(0, 22);

const holdsNothing: Holds = () => false;

/** Events read and folded at a time by a streamed replay; the one-piece replay, held
 * whole anyway, reads larger batches (fewer round trips, still yielding between them). */
const REPLAY_BATCH = 250;
const WHOLE_REPLAY_BATCH = 2000;

interface ReplayStart {
  readonly kind: 'start';
  readonly gameType: string;
  readonly game: ReturnType<typeof summarize>;
  readonly initialView: unknown;
}
interface ReplayStep {
  readonly kind: 'step';
  readonly gameType: string;
  readonly seq: number;
  readonly event: GameEvent;
  readonly actor: string;
  readonly at: string;
  readonly view: unknown;
}
/** One line of a streamed replay. */
export type ReplayLine = ReplayStart | ReplayStep | { readonly kind: 'end'; readonly gameType: string; readonly result: GameResult | null };

export class GameReads {
  constructor(
    private readonly store: EventStore,
    private readonly latest: LatestStates,
    private readonly past: PastStates,
  ) {}

  async summary(gameId: string, token: string | undefined, holds = holdsNothing) {
    const loaded = await this.latest.load(gameId);
    const principal = resolvePrincipal(loaded.record, token);
    // The rematch link is the one part of a finished game's summary that still changes.
    if (holds(tagOf(loaded, ['summary', principal, loaded.record.rematchId]), loaded.record.rematchId === null)) return unchanged;
    return { game: summarize(loaded.record, endOf(loaded.game, loaded.state)), you: principal, ...describeVersion(loaded, allowedViewer(loaded.record, principal, undefined)) };
  }

  async list(filter: GameFilter) {
    const records = await this.store.listGames(filter);
    const last = records.at(-1);
    // Only finished games have a result or an ending, and folding one is the only way to know it.
    const results = await Promise.all(records.map(async (r) => (r.status === 'finished' ? endOfLoaded(await this.latest.load(r.id)) : undefined)));
    return {
      games: records.map((r, i) => summarize(r, results[i])),
      next: records.length === filter.limit && last ? encodeCursor(last) : null,
    };
  }

  /** The view at `version` (default: the latest) through `requested` eyes, if allowed. */
  async viewAt(gameId: string, token: string | undefined, version: number | undefined, requested: Viewer | undefined, holds = holdsNothing): Promise<GameSnapshot | Unchanged> {
    const latest = await this.latest.load(gameId);
    const viewer = allowedViewer(latest.record, resolvePrincipal(latest.record, token), requested);
    if (version !== undefined && (version > latest.version || version < 0)) throw new ServiceError(serviceCodes.validation, `version must be between 0 and ${latest.version}`);
    if (holds(tagOf(latest, ['view', version ?? latest.version, viewer]))) return unchanged;
    if (version === undefined || version === latest.version) return describeVersion(latest, viewer);
    return describeVersion(atVersion(latest, await this.past.at(latest, version), version), viewer);
  }

  async events(gameId: string, token: string | undefined, after: number, limit: number, requested?: Viewer, holds = holdsNothing): Promise<EventPage | Unchanged> {
    const latest = await this.latest.load(gameId);
    const viewer = allowedViewer(latest.record, resolvePrincipal(latest.record, token), requested);
    if (holds(tagOf(latest, ['events', after, limit, viewer]))) return unchanged;
    // Redaction needs the state each event applied to.
    const from = Math.min(after, latest.version);
    const before = await this.past.at(latest, from);
    const page = await this.store.readEvents(gameId, from, undefined, Math.min(from + limit, latest.version));
    const { shown, state } = redactAll(latest, before, page, viewer);
    this.past.remember(gameId, from + page.length, state);
    return {
      gameType: latest.game.type,
      events: shown.map((e, i) => ({ ...e, actor: page[i]!.actor, at: page[i]!.at.toISOString() })),
      version: latest.version,
      next: after + page.length < latest.version ? after + page.length : null,
    };
  }

  /** Every step of a finished game with everything revealed, the seed to check it and
   * the race log, in one piece (see replayLines for a long game). */
  async replay(gameId: string, holds = holdsNothing) {
    const lines = await this.replayFrom(gameId, holds, 'json', WHOLE_REPLAY_BATCH);
    if (lines === unchanged) return unchanged;
    const steps: ReplayStep[] = [];
    let head: ReplayStart | undefined;
    let result: GameResult | null = null;
    for await (const batch of lines) {
      for (const line of batch) {
        if (line.kind === 'start') head = line;
        else if (line.kind === 'step') steps.push(line);
        else result = line.result;
      }
    }
    const { gameType, game, initialView } = head!;
    const stored = steps.map(({ seq, event, actor, at }) => ({ seq, event, actor, at: new Date(at) }));
    const races = raceLog(gameType, stored, await this.store.raceRefusals.list(gameId));
    return { gameType, game, initialView, steps: steps.map(({ kind: _kind, gameType: _type, ...step }) => step), result, raceLog: races };
  }

  /** The replay as lines, built from `batch` events read at a time, so a long game is
   * never held whole: a `start` line (the summary, the view before the first event), a
   * `step` per event (with the view after it) and an `end` line (the result). The race
   * log, which needs the whole log, is not among them: GET /games/{id}/race-log. */
  replayLines(gameId: string, holds = holdsNothing, batch = REPLAY_BATCH): Promise<AsyncIterable<readonly ReplayLine[]> | Unchanged> {
    return this.replayFrom(gameId, holds, 'lines', batch);
  }

  /** `form` tells the two answers' tags apart. */
  private async replayFrom(gameId: string, holds: Holds, form: 'json' | 'lines', batch: number): Promise<AsyncIterable<readonly ReplayLine[]> | Unchanged> {
    const latest = await this.latest.load(gameId);
    if (latest.record.status !== 'finished') throw new ServiceError(serviceCodes.notFinished, 'the replay is public once the game is over');
    if (holds(tagOf(latest, ['replay', form]))) return unchanged;
    return this.replayBatches(latest, batch);
  }

  private async *replayBatches(latest: LoadedGame, batch: number): AsyncGenerator<readonly ReplayLine[]> {
    const { game } = latest;
    const gameType = game.type;
    const all: Viewer = { kind: 'all' };
    let state = game.initialState(latest.setup);
    yield [{ kind: 'start', gameType, game: summarize(latest.record, endOfLoaded(latest)), initialView: game.view(state, all) }];
    for (let after = 0; after < latest.version; after += batch) {
      const events = await this.store.readEvents(latest.record.id, after, batch, latest.version);
      yield events.map(({ seq, event, actor, at }): ReplayStep => {
        state = game.evolve(state, event);
        return { kind: 'step', gameType, seq, event, actor, at: at.toISOString(), view: game.view(state, all) };
      });
    }
    yield [{ kind: 'end', gameType, result: game.result(state) }];
  }

  /** Every race command so far, accepted or refused, in the order decided. Race
   * commands and their refusals show only what the table shows (the games with races
   * hide nothing), so seats, the referee and spectators read it; a game with hidden
   * information would show it to spectators once over. */
  async raceLog(gameId: string, token: string | undefined): Promise<{ gameType: string; version: number; entries: RaceEntry[] }> {
    const latest = await this.latest.load(gameId);
    const principal = resolvePrincipal(latest.record, token);
    if (principal.kind === 'anonymous' && latest.game.traits.hiddenInformation && latest.record.status !== 'finished') {
      throw new ServiceError(serviceCodes.forbidden, 'this game hides information: its race log is for its seats and referee until it is over');
    }
    const [events, refusals] = await Promise.all([this.store.readEvents(gameId, 0, undefined, latest.version), this.store.raceRefusals.list(gameId)]);
    return { gameType: latest.game.type, version: latest.version, entries: raceLog(latest.game.type, events, refusals.filter((r) => r.version <= latest.version)) };
  }

  async principalFor(gameId: string, token: string | undefined): Promise<{ record: GameRecord; principal: Principal }> {
    const record = await this.record(gameId);
    return { record, principal: resolvePrincipal(record, token) };
  }

  private async record(gameId: string): Promise<GameRecord> {
    const record = await this.store.loadGame(gameId);
    if (record === null) throw new ServiceError(serviceCodes.gameNotFound, `no game ${gameId}`);
    return record;
  }
}
