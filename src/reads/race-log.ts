// A game's race log: every race command (src/domain/races.ts) in the order the server
// decided them, accepted ones from the event log, refused ones from their records
// (src/events/race-refusals.ts), so that who was first can be shown afterwards.
import type { ChanceEvent } from '../domain/chance-party.ts';
import { racesOf } from '../domain/races.ts';
import type { StoredEvent } from '../events/records.ts';
import type { RaceRefusal } from '../events/race-refusals.ts';

export interface RaceEntry {
  readonly seat: number;
  /** Who sent it: seat:N, referee:seat:N or bot:seat:N. */
  readonly actor: string;
  readonly command: { readonly type: string };
  /** Server clock when it was decided, ms since the epoch. */
  readonly receivedAt: number;
  readonly outcome: 'accepted' | 'refused';
  /** The game's version it was decided on: it came after event `version`. */
  readonly version: number;
  /** Accepted: its first event. */
  readonly seq: number | null;
  /** Refused: the refusal's code. */
  readonly code: string | null;
}

/** Accepted and refused race commands of a game of `type`, in decision order: by the
 * version decided on, refusals before the command accepted on the same version (that
 * one moved the game on), then by time. */
export function raceLog(type: string, events: readonly StoredEvent[], refusals: readonly Omit<RaceRefusal, 'gameId'>[]): RaceEntry[] {
  const rules = racesOf(type);
  if (rules === null) return [];
  const entries: (RaceEntry & { ord: number })[] = [];
  // A race command accepted while the game waited for chance (a grab that settles a
  // card in a supplied game) is its ChanceAwaited; its own event follows later.
  let awaited: { seat: number; type: string } | null = null;
  for (const { seq, event, actor, at } of events) {
    if (event.type === 'ChanceAwaited') {
      const { seat, command, at: receivedAt } = event as Extract<ChanceEvent, { type: 'ChanceAwaited' }>;
      if (seat === null || command === null || !rules.commands.includes(command.type)) continue;
      awaited = { seat, type: command.type };
      entries.push({ seat, actor, command, receivedAt, outcome: 'accepted', version: seq - 1, seq, code: null, ord: 0 });
      continue;
    }
    const accepted = rules.accepted(event);
    if (accepted === null) continue;
    if (awaited !== null && awaited.seat === accepted.seat && awaited.type === accepted.command.type) {
      awaited = null;
      continue;
    }
    const receivedAt = accepted.receivedAt ?? at.getTime();
    entries.push({ seat: accepted.seat, actor, command: accepted.command, receivedAt, outcome: 'accepted', version: seq - 1, seq, code: null, ord: 0 });
  }
  for (const r of refusals) {
    entries.push({ seat: r.seat, actor: r.actor, command: r.command as { type: string }, receivedAt: r.receivedAt, outcome: 'refused', version: r.version, seq: null, code: r.code, ord: r.ord });
  }
  const rank = (e: RaceEntry) => (e.outcome === 'refused' ? 0 : 1);
  entries.sort((a, b) => a.version - b.version || rank(a) - rank(b) || a.receivedAt - b.receivedAt || a.ord - b.ord);
  return entries.map(({ ord: _ord, ...entry }) => entry);
}
