// Golden conformance logs: one recorded game per game type, as NDJSON, one line per
// version the game passes through: the setup, then each command with its events as
// every viewer sees them and every viewer's view after it. Deterministic: the seed
// fixes chance and the choices, the clock starts at a fixed time.
import { serverChance } from '../src/domain/chance.ts';
import { isViolation, type Actor, type Viewer } from '../src/domain/contract.ts';
import { games, type AnyGame } from '../src/domain/games.ts';

export const conformanceDir = new URL('../conformance/', import.meta.url);
export const START = Date.UTC(2026, 0, 1);

const viewerName = (viewer: Viewer) => (viewer.kind === 'seat' ? `seat:${viewer.seat}` : viewer.kind);
const pick = <T>(seed: string, n: number, items: readonly T[]): T => items[serverChance(`pick:${seed}`, n).roll(items.map((_, i) => i), 1)[0]!]!;

export function recordGame(game: AnyGame, seed: string, options: Record<string, unknown>, maxCommands: number): string {
  const seats = game.players.min;
  const viewers: Viewer[] = [...Array.from({ length: seats }, (_, seat): Viewer => ({ kind: 'seat', seat })), { kind: 'spectator' }, { kind: 'all' }];
  const setup = { seats, options: game.optionsSchema.parse(options) };
  let now = START;
  let state = game.initialState(setup);
  const lines: unknown[] = [];
  let version = 0;
  const record = (line: Record<string, unknown>, before: unknown, events: readonly { type: string }[]) => {
    const seen: Record<string, unknown[]> = {};
    for (const viewer of viewers) {
      let at = before;
      seen[viewerName(viewer)] = events.map((event) => {
        const shown = game.redact(event, viewer, at);
        at = game.evolve(at, event);
        return shown;
      });
    }
    state = events.reduce((s, e) => game.evolve(s, e), before);
    version += events.length;
    const views = Object.fromEntries(viewers.map((viewer) => [viewerName(viewer), game.view(state, viewer)]));
    lines.push({ version, ...line, events: seen, views, pending: game.pending(state), result: game.result(state) });
  };
  record({ setup: { seats, options: setup.options, seed, now } }, state, game.setup(state, { now, chance: serverChance(seed, 0) }));
  for (let n = 0; n < maxCommands && game.result(state) === null; n++) {
    const pending = game.pending(state);
    const choices = pending.seats.flatMap((seat) => game.legalCommands(state, seat).map((command) => ({ actor: { kind: 'seat', seat } as Actor, command })));
    // Seats act a second apart; with nobody to act, the clock jumps to the deadline.
    const timeout = choices.length === 0 && pending.deadline !== undefined;
    if (!timeout && choices.length === 0) throw new Error(`${game.type}: nobody can act at version ${version}`);
    if (n === maxCommands - 1) throw new Error(`${game.type}: no result after ${maxCommands} commands`);
    const { actor, command } = timeout ? { actor: { kind: 'system' } as Actor, command: { type: 'timeout' } } : pick(seed, n, choices);
    now = timeout ? Math.max(now, pending.deadline!) : pending.deadline === undefined ? now + 1000 : Math.min(now + 100, pending.deadline - 1);
    const events = game.decide(state, command, { actor, now, chance: serverChance(seed, version) });
    if (isViolation(events)) throw new Error(`${game.type}: a legal command was refused: ${events.code}`);
    record({ actor: actor.kind === 'seat' ? `seat:${actor.seat}` : 'system', now, command }, state, events);
  }
  return lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
}

/** Options and seeds that keep a recorded game short (Mistkäfer's seed gave the
 * shortest of 25 random games); every game is recorded to its end. */
const shorter: Record<string, Record<string, unknown>> = { 'porca-miseria': { maxActions: 12 } };
const seeds: Record<string, string> = { mistkaefer: 'conformance-mistkaefer-22' };

/** The committed logs: conformance/<game>.ndjson. */
export const recordings = games.map((game) => ({
  game,
  file: new URL(`${game.type}.ndjson`, conformanceDir),
  text: () => recordGame(game, seeds[game.type] ?? `conformance-${game.type}`, shorter[game.type] ?? {}, 5000),
}));

