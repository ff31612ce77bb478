// What a caller sees of a game at one version: the shape shared by command answers,
// reads and live pushes.
import { needAsSeenBy } from '../domain/chance-party.ts';
import { isOver, type Command, type GameEvent, type GameResult, type Pending, type Viewer } from '../domain/contract.ts';
import type { LoadedGame } from './latest-states.ts';
import type { GameStatus } from '../events/records.ts';

export interface VersionedEvent {
  readonly seq: number;
  readonly event: GameEvent;
}

export interface GameSnapshot {
  /** The game's type: tells clients which game's view, commands and events these are. */
  readonly gameType: string;
  readonly version: number;
  readonly status: GameStatus;
  readonly view: unknown;
  readonly pending: Pending;
  /** What the viewer's seat may send now; empty for spectators. */
  readonly legalCommands: readonly Command[];
  /** Through everyone's eyes (the referee of a supplied game, a finished game's
   * replay): every seat's legal commands, index = seat. */
  readonly seatCommands?: readonly (readonly Command[])[];
  readonly result: GameResult | null;
}

export function describeVersion(loaded: LoadedGame, viewer: Viewer): GameSnapshot {
  const { game, state } = loaded;
  const running = loaded.record.status === 'running';
  const snapshot: GameSnapshot = {
    gameType: game.type,
    version: loaded.version,
    status: loaded.record.status,
    view: game.view(state, viewer),
    pending: running ? pendingAsSeenBy(game.pending(state), viewer) : { seats: [] },
    legalCommands: running && viewer.kind === 'seat' ? game.legalCommands(state, viewer.seat) : [],
    result: game.result(state),
  };
  if (viewer.kind !== 'all') return snapshot;
  const seats = Array.from({ length: loaded.setup.seats }, (_, seat) => (running ? game.legalCommands(state, seat) : []));
  return { ...snapshot, seatCommands: seats };
}

/** The game at an earlier `version`, whose state is `state`: finished only if its
 * result is in by then. */
export function atVersion(latest: LoadedGame, state: unknown, version: number): LoadedGame {
  const status: GameStatus = isOver(latest.game, state) ? 'finished' : 'running';
  return { ...latest, state, version, record: { ...latest.record, status, version } };
}

/** What chance must supply is shown to all; the values it may take only to `all`. */
const pendingAsSeenBy = (pending: Pending, viewer: Viewer): Pending =>
  pending.chance === undefined || viewer.kind === 'all' ? pending : { ...pending, chance: needAsSeenBy(pending.chance, viewer) };

/** Events as `viewer` may see them, each redacted against the state it applied to. */
export function redactAll(loaded: Pick<LoadedGame, 'game'>, from: unknown, events: readonly VersionedEvent[], viewer: Viewer): { shown: VersionedEvent[]; state: unknown } {
  let state = from;
  const shown = events.map(({ seq, event }) => {
    const visible = { seq, event: loaded.game.redact(event, viewer, state) };
    state = loaded.game.evolve(state, event);
    return visible;
  });
  return { shown, state };
}
