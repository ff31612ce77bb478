// Plays one complete game in-process: no database, no clock, no network. The platform's
// loop in miniature: setup with server chance, then the pending seats' bots act; when
// nobody may act but a deadline is set (or it has passed), a fake clock jumps to it
// and the system sends `timeout`. Chance per command is serverChance(seed, version),
// exactly as the command handler draws it, so a logged game replays on the platform.
// Same seed, same bots → the same game.
import { serverChance } from '../domain/chance.ts';
import { isViolation, type Actor, type Command, type GameEvent, type GameModule, type GameResult, type Setup } from '../domain/contract.ts';
import type { Bot, Turn } from './bot.ts';
import { seededRng, shuffle } from './rng.ts';

export interface PlayOptions<V, C extends Command> {
  /** One bot per seat; the seat count is `bots.length`. */
  readonly bots: readonly Bot<V, C>[];
  readonly seed: string;
  /** Raw game options; the game's schema fills in defaults. */
  readonly options?: unknown;
  /** Safety net against a rules bug that never ends a game. */
  readonly maxCommands?: number;
}

export interface PlayedGame<S, E extends GameEvent> {
  readonly setup: Setup<unknown>;
  readonly events: readonly E[];
  readonly state: S;
  /** Null only when `maxCommands` ran out first. */
  readonly result: GameResult | null;
  /** Commands sent by seats, and by seat. */
  readonly commands: number;
  readonly commandsBySeat: readonly number[];
  /** `timeout` commands sent by the system. */
  readonly timeouts: number;
}

/** A fixed start keeps deadlines in the events identical between runs. */
export const START = Date.UTC(2025, 0, 1);
/** Each seat command takes this long on the fake clock, so receive times differ and
 * a window stays open long enough for every seat at the table. */
const THINK_MS = 10;

/** A bot's turn whose view is built only if the bot looks (the random bot never does).
 * A class, not a literal with a getter: each such literal got a hidden class of its own
 * whose closure kept the turn's state alive until a full GC, which was most of a
 * simulation's time. */
export class LazyTurn<S, V, C extends Command> implements Turn<V, C> {
  private seen: V | undefined;
  constructor(
    private readonly game: Pick<GameModule<unknown, S, C, GameEvent, V>, 'view'>,
    private readonly state: S,
    readonly seat: number,
    readonly legal: readonly C[],
  ) {}
  get view(): V {
    return (this.seen ??= this.game.view(this.state, { kind: 'seat', seat: this.seat }));
  }
}

export function play<O, S, C extends Command, E extends GameEvent, V>(
  game: GameModule<O, S, C, E, V>,
  { bots, seed, options = {}, maxCommands = 100_000 }: PlayOptions<V, C>,
): PlayedGame<S, E> {
  const setup: Setup<O> = { options: game.optionsSchema.parse(options), seats: bots.length };
  const invalid = game.validateSetup?.(setup);
  if (invalid) throw new Error(`${game.type}: ${invalid.code}: ${invalid.message}`);
  const rng = seededRng(`${seed}:bots`);
  let now = START;
  let state = game.initialState(setup);
  const events: E[] = game.setup(state, { now, chance: serverChance(seed, 0) });
  state = events.reduce(game.evolve, state);
  const commandsBySeat = bots.map(() => 0);
  let timeouts = 0;

  const apply = (actor: Actor, command: C): void => {
    const answer = game.decide(state, command, { actor, now, chance: serverChance(seed, events.length) });
    if (isViolation(answer)) {
      const who = actor.kind === 'seat' ? `seat ${actor.seat} (${bots[actor.seat]?.name})` : 'system';
      throw new Error(`${game.type} seed ${seed}: ${who} sent ${JSON.stringify(command)}: ${answer.code}`);
    }
    events.push(...answer);
    state = answer.reduce(game.evolve, state);
  };

  let commands = 0;
  while (game.result(state) === null && commands + timeouts < maxCommands) {
    const { seats, deadline } = game.pending(state);
    if (deadline !== undefined && (seats.length === 0 || now >= deadline)) {
      now = Math.max(now, deadline);
      apply({ kind: 'system' }, { type: 'timeout' } as C);
      timeouts++;
      continue;
    }
    if (seats.length === 0) throw new Error(`${game.type} seed ${seed}: nobody may act and no deadline is set`);
    // Simultaneous choices and races: the rng decides who the server hears first.
    const racing = seats.length > 1;
    for (const seat of racing ? shuffle(rng, seats) : seats) {
      if (racing) {
        // An earlier seat's command may have closed the window or moved the game on.
        const current = game.pending(state);
        if (!current.seats.includes(seat) || (current.deadline !== undefined && now >= current.deadline)) continue;
      }
      const turn = new LazyTurn(game, state, seat, game.legalCommands(state, seat));
      apply({ kind: 'seat', seat }, bots[seat]!.choose(turn, rng));
      commandsBySeat[seat]!++;
      commands++;
      now += THINK_MS;
    }
  }
  return { setup, events, state, result: game.result(state), commands, commandsBySeat, timeouts };
}
