// src/reads/ is the read side: game summaries and lists, views at any version, the
// event log and the replay. It may import src/domain, src/events, src/state,
// src/access and src/errors.ts, and never writes.
//
// Every read of a game: summaries, the game list, views at any version, pages of the
// event log and the replay, each as the caller's token allows them to see it.
import type { Viewer } from '../domain/contract.ts';
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

export class GameReads {
  constructor(
    private readonly store: EventStore,
    private readonly latest: LatestStates,
    private readonly past: PastStates,
  ) {}

  async summary(gameId: string, token: string | undefined) {
    const loaded = await this.latest.load(gameId);
    const principal = resolvePrincipal(loaded.record, token);
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
  async viewAt(gameId: string, token: string | undefined, version: number | undefined, requested: Viewer | undefined): Promise<GameSnapshot> {
    const latest = await this.latest.load(gameId);
    const viewer = allowedViewer(latest.record, resolvePrincipal(latest.record, token), requested);
    if (version === undefined || version === latest.version) return describeVersion(latest, viewer);
    if (version > latest.version || version < 0) throw new ServiceError(serviceCodes.validation, `version must be between 0 and ${latest.version}`);
    return describeVersion(atVersion(latest, await this.past.at(latest, version), version), viewer);
  }

  async events(gameId: string, token: string | undefined, after: number, limit: number, requested?: Viewer): Promise<EventPage> {
    const latest = await this.latest.load(gameId);
    const viewer = allowedViewer(latest.record, resolvePrincipal(latest.record, token), requested);
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

  /** Every step of a finished game with everything revealed, and the seed to check it. */
  async replay(gameId: string) {
    const latest = await this.latest.load(gameId);
    if (latest.record.status !== 'finished') throw new ServiceError(serviceCodes.notFinished, 'the replay is public once the game is over');
    const events = await this.store.readEvents(gameId, 0);
    const all: Viewer = { kind: 'all' };
    let state = latest.game.initialState(latest.setup);
    const steps = events.map(({ seq, event, actor, at }) => {
      state = latest.game.evolve(state, event);
      return { seq, event, actor, at: at.toISOString(), view: latest.game.view(state, all) };
    });
    const races = raceLog(latest.game.type, events, await this.store.raceRefusals.list(gameId));
    return { gameType: latest.game.type, game: summarize(latest.record, endOf(latest.game, state)), initialView: latest.game.view(latest.game.initialState(latest.setup), all), steps, result: latest.game.result(state), raceLog: races };
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
