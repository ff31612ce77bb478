// src/live/ is live fan-out: who watches which game and the redacted update each
// watcher gets after a commit, here or on another instance. It may import src/domain,
// src/events, src/state and src/lib.
//
// Live updates: every watcher of a game gets every new event, in order, redacted for
// its own eyes, in updates that each carry the events since the previous one. One
// channel per watched game folds the log once for all its watchers. New versions
// arrive from this instance's own commits (already in memory) or from a notification,
// after which the channel reads the events from the database.
import { eyesKey, type GameEvent, type Viewer } from '../domain/contract.ts';
import { KeyedQueue } from '../lib/keyed-queue.ts';
import { foldOn, type LatestStates, type LoadedGame } from '../state/latest-states.ts';
import type { PastStates } from '../state/past-states.ts';
import { defaultLiveLimits } from './socket-limits.ts';
import { atVersion, describeVersion, redactAll, type GameSnapshot, type VersionedEvent } from '../state/snapshot.ts';
import type { EventStore } from '../events/store.ts';
import type { GameRecord } from '../events/records.ts';

export interface Update extends GameSnapshot {
  readonly type: 'update';
  /** Events after the watcher's previous version, redacted for it. */
  readonly events: readonly VersionedEvent[];
}

export interface Watcher {
  readonly viewer: Viewer;
  /** Receives each Update, already serialized (a new version's as UTF-8 bytes that
   * every watcher with the same eyes shares). */
  send(json: string | Buffer): void;
  /** Receives one part of a long catch-up; settles once the connection has taken it
   * (true), or with false when the connection is gone. */
  sendPart(json: string): Promise<boolean>;
  /** The game's seats changed (a seat handed to a bot, its token revoked): the watcher
   * checks its eyes against `record`; false if they are no longer its own, and it is
   * closing. */
  reseated(record: GameRecord): boolean;
}

interface Channel {
  loaded: LoadedGame;
  readonly watchers: Set<Watcher>;
}

/** Commits of a game waiting for their turn in its queue to be published. */
interface Unpublished {
  readonly before: LoadedGame;
  readonly events: VersionedEvent[];
  after: LoadedGame;
}

export class LiveHub {
  private readonly channels = new Map<string, Channel>();
  /** Games whose first watcher is still being set up: news of them must wait in the
   * queue behind the set-up rather than be dropped. */
  private readonly opening = new Map<string, number>();
  private readonly queue = new KeyedQueue();
  private readonly unpublished = new Map<string, Unpublished>();
  private seatChanges = 0;

  constructor(
    private readonly store: EventStore,
    private readonly latest: LatestStates,
    private readonly past: PastStates,
    /** Events in one update of a catch-up (live/socket-limits.ts). */
    private readonly catchUpEvents = defaultLiveLimits.catchUpEvents,
  ) {}

  /** Starts watching; first sends what happened after `after` (catch-up), then every
   * new version. Returns the function that stops watching.
   * A catch-up longer than `catchUpEvents` goes out in parts, each an update of at most
   * that many events with the view after them, and each waits until the socket has
   * taken the previous one: outside the game's queue, so a slow reader holds up no one
   * else. The watcher joins the channel with the last part, in the queue, so that no
   * version is missed or sent twice. `seatsRead`: the count of seat changes heard
   * (seatChangesHeard) when the watcher's eyes were read; if it has moved, they are
   * checked again before anything is sent. */
  async watch(gameId: string, watcher: Watcher, after: number, seatsRead = this.seatChanges): Promise<() => void> {
    let from = after;
    let state: unknown;
    let checked = seatsRead;
    for (;;) {
      const step = await this.inQueue(gameId, async (channel) => {
        const { loaded } = channel;
        if (checked !== this.seatChanges) {
          checked = this.seatChanges;
          if (!watcher.reseated((await this.latest.load(gameId)).record)) return null;
        }
        if (state === undefined) {
          from = Math.max(0, Math.min(from, loaded.version));
          // No read at all for a client that is up to date or starts from the beginning.
          state = await this.past.at(loaded, from);
        }
        if (loaded.version - from > this.catchUpEvents) return { loaded, joined: null };
        const missed = from === loaded.version ? [] : await this.store.readEvents(gameId, from, undefined, loaded.version);
        const { shown } = redactAll(loaded, state, missed, watcher.viewer);
        channel.watchers.add(watcher);
        watcher.send(serialize({ type: 'update', ...describeVersion(loaded, watcher.viewer), events: shown }));
        return { loaded, joined: channel };
      });
      if (step === null) return () => {};
      if (step.joined !== null) return this.leaving(gameId, step.joined, watcher);
      const part = await this.store.readEvents(gameId, from, this.catchUpEvents, step.loaded.version);
      const { shown, state: next } = redactAll(step.loaded, state, part, watcher.viewer);
      from = part.at(-1)!.seq;
      state = next;
      const reached = atVersion(step.loaded, next, from);
      if (!(await watcher.sendPart(serialize({ type: 'update', ...describeVersion(reached, watcher.viewer), events: shown })))) return () => {};
    }
  }

  /** The function that stops `watcher` watching. Made out here because a closure in
   * watch() would keep the whole of watch()'s scope, the state the catch-up started
   * from included, for as long as the socket is open. */
  private leaving(gameId: string, channel: Channel, watcher: Watcher): () => void {
    return () => {
      channel.watchers.delete(watcher);
      if (channel.watchers.size === 0 && this.channels.get(gameId) === channel) this.channels.delete(gameId);
    };
  }

  /** Runs `work` in the game's queue on its channel, opened if nobody watches it yet. */
  private inQueue<T>(gameId: string, work: (channel: Channel) => Promise<T>): Promise<T> {
    this.opening.set(gameId, (this.opening.get(gameId) ?? 0) + 1);
    return this.queue.run(gameId, async () => {
      let channel: Channel;
      try {
        channel = this.channels.get(gameId) ?? (await this.open(gameId));
      } finally {
        const left = this.opening.get(gameId)! - 1;
        if (left === 0) this.opening.delete(gameId);
        else this.opening.set(gameId, left);
      }
      return work(channel);
    });
  }

  /** How many seat changes this instance has heard of, of any game (see watch). */
  get seatChangesHeard(): number {
    return this.seatChanges;
  }

  /** The game's seats changed, here or on another instance (its copy in LatestStates is
   * forgotten already): every watcher checks its eyes against the seats now stored. */
  seatsChanged(gameId: string): Promise<void> {
    this.seatChanges++;
    if (!this.channels.has(gameId)) return Promise.resolve();
    return this.queue.run(gameId, async () => {
      const channel = this.channels.get(gameId);
      if (channel === undefined) return;
      const { record } = await this.latest.load(gameId);
      for (const watcher of [...channel.watchers]) if (!watcher.reseated(record)) channel.watchers.delete(watcher);
    });
  }

  /** Seat changes may have gone unheard (the notifications' connection was lost). */
  async allSeatsChanged(): Promise<void> {
    this.seatChanges++;
    await Promise.all([...this.channels.keys()].map((gameId) => this.seatsChanged(gameId)));
  }

  /** This instance committed `events` on top of `before`: no need to read them back.
   * Commits that land together (a race's grabs travel in one statement) reach each
   * watcher as one update carrying all their events. */
  committed(before: LoadedGame, events: readonly GameEvent[], after: LoadedGame): void {
    const gameId = after.record.id;
    if (!this.watched(gameId)) return;
    const numbered = events.map((event, i) => ({ seq: before.version + i + 1, event }));
    const waiting = this.unpublished.get(gameId);
    if (waiting !== undefined && waiting.after.version === before.version) {
      waiting.events.push(...numbered);
      waiting.after = after;
      return;
    }
    const batch: Unpublished = { before, events: numbered, after };
    this.unpublished.set(gameId, batch);
    void this.queue.run(gameId, async () => {
      if (this.unpublished.get(gameId) === batch) this.unpublished.delete(gameId);
      const channel = this.channels.get(gameId);
      if (channel === undefined || channel.loaded.version !== batch.before.version) return this.pull(gameId, batch.after.version);
      this.publish(channel, batch.events, batch.after);
    });
  }

  /** Some instance says the game reached `version`. Settles once the watchers have
   * been told; undefined when nobody here watches the game. */
  moved(gameId: string, version: number): Promise<void> | undefined {
    if (!this.watched(gameId)) return undefined;
    return this.queue.run(gameId, () => this.pull(gameId, version));
  }

  /** Catches up every watched game that moved without this instance hearing of it
   * (a lost connection, or an instance that died between its commit and its
   * announcement). The store reads versions asked for together in one query. */
  async resync(): Promise<void> {
    await Promise.all(
      [...this.channels.keys()].map(async (id) => {
        const version = await this.store.version(id);
        if (version !== null) void this.moved(id, version);
      }),
    );
  }

  private watched(gameId: string): boolean {
    return this.channels.has(gameId) || this.opening.has(gameId);
  }

  private async open(gameId: string): Promise<Channel> {
    const channel: Channel = { loaded: await this.latest.load(gameId), watchers: new Set() };
    this.channels.set(gameId, channel);
    return channel;
  }

  /** Reads what the game's watchers have not been pushed: the record first, then the
   * events up to its version, so that the update's status is the one of its last event.
   * Read the other way round, a commit landing in between (the game's last move, an
   * abort) put a newer status on older events: watchers were told the game had
   * finished one update before its final event, and one that stopped there missed it. */
  private async pull(gameId: string, version: number): Promise<void> {
    const channel = this.channels.get(gameId);
    if (channel === undefined || version <= channel.loaded.version) return;
    const record = await this.store.loadGame(gameId);
    if (record === null || record.version <= channel.loaded.version) return;
    const stored = await this.store.readEvents(gameId, channel.loaded.version, undefined, record.version);
    if (stored.length === 0) return;
    const state = foldOn(channel.loaded.game, channel.loaded.state, stored);
    const after: LoadedGame = { ...channel.loaded, state, version: record.version, record };
    this.publish(channel, stored, after);
  }

  private publish(channel: Channel, events: readonly VersionedEvent[], after: LoadedGame): void {
    const before = channel.loaded;
    channel.loaded = after;
    const shared = after.game.traits.hiddenInformation ? null : sharedUpdate(before, events, after);
    // Built and encoded once per kind of eyes: every spectator gets the same bytes, and
    // so does every socket of one seat.
    const encoded = new Map<string, Buffer>();
    for (const watcher of channel.watchers) {
      const { viewer } = watcher;
      const eyes = eyesKey(viewer);
      let update = encoded.get(eyes);
      if (update === undefined) {
        update = Buffer.from(shared !== null && viewer.kind !== 'all' ? shared(viewer) : serialize({ type: 'update', ...describeVersion(after, viewer), events: redactAll(before, before.state, events, viewer).shown }));
        encoded.set(eyes, update);
      }
      watcher.send(update);
    }
  }
}

const serialize = (update: Update): string => JSON.stringify(update);

/** For a game without hidden information: the update every seat and spectator shares,
 * built and serialized once, with each seat's own legal commands added. */
function sharedUpdate(before: LoadedGame, events: readonly VersionedEvent[], after: LoadedGame): (viewer: Viewer) => string {
  const spectator: Viewer = { kind: 'spectator' };
  const { shown } = redactAll(before, before.state, events, spectator);
  const { legalCommands: _none, ...common } = describeVersion(after, spectator);
  const head = JSON.stringify({ type: 'update', ...common, events: shown }).slice(0, -1);
  const running = after.record.status === 'running';
  return (viewer) => {
    const legal = running && viewer.kind === 'seat' ? after.game.legalCommands(after.state, viewer.seat) : [];
    return `${head},"legalCommands":${JSON.stringify(legal)}}`;
  };
}
