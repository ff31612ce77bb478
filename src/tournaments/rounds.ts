// What a tournament's state says about its rounds: whether one is owed by the server,
// whether the tournament is over, what the next round will look like (the answer an
// organizer gets before acting), and the input its pairing takes.
import { byesAllowed, seating } from '../domain/tournament/format.ts';
import { isComplete, type PairingInput } from '../domain/tournament/pairing.ts';
import { defaultPointsScheme, defaultTieBreaks } from '../domain/tournament/standings.ts';
import { allByes, allResults, currentRound, pairedPlayers, roundComplete, type Player, type TournamentState } from './log.ts';

/** How the next round would sit, as far as it can be told now. */
export interface Outlook {
  readonly round: number;
  /** Players it would pair (a knockout's: those going on, counting tables still playing as full). */
  readonly players: number;
  readonly tables: readonly number[];
  readonly byes: number;
  /** Why it could not be paired; null when it can. */
  readonly blocked: string | null;
}

/** Whether the last round paired was the tournament's last (every table finished). */
export function lastRoundPlayed(state: TournamentState): boolean {
  const round = currentRound(state);
  if (round === undefined || !roundComplete(state, round)) return false;
  return isComplete(state.format, round.round, allResults(state), allByes(state));
}

/** Whether the server owes the next round now: the last one is complete and the
 * tournament goes on, the organizer left pairing to the server (advance "auto") or
 * scheduled it for a time that has come, and nothing blocks it. */
export function roundDue(state: TournamentState, now: number): boolean {
  if (state.status === 'finished' || state.blocked !== null) return false;
  const round = currentRound(state);
  if (round !== undefined && (!roundComplete(state, round) || lastRoundPlayed(state))) return false;
  if (state.scheduled !== null) return Date.parse(state.scheduled.at) <= now;
  return round !== undefined && state.settings.advance === 'auto';
}

/** When the server should next look at the tournament's rounds (the row's
 * next_round_at, which a restarted server reads): a scheduled round's time, now for a
 * round owed now, never while blocked or over. */
export function nextRoundAt(state: TournamentState, now: number): Date | null {
  if (state.status === 'finished' || state.blocked !== null) return null;
  if (state.scheduled !== null) return new Date(state.scheduled.at);
  return roundDue(state, now) ? new Date(now) : null;
}

/** The players round `round` pairs: neither withdrawn nor absent; before round 1 of a
 * tournament that opened check-in, only those who checked in (bots need not). */
export function fieldOf(state: TournamentState, round: number): { players: Player[]; notCheckedIn: Player[] } {
  const paired = pairedPlayers(state);
  if (round !== 1 || state.checkIn === null) return { players: paired, notCheckedIn: [] };
  const present = (p: Player) => p.bot !== undefined || state.checkedIn.has(p.id);
  return { players: paired.filter(present), notCheckedIn: paired.filter((p) => !present(p)) };
}

export function pairingInput(state: TournamentState, round: number, players: readonly Player[]): PairingInput {
  return {
    format: state.format,
    round,
    players: players.map((p) => (p.seed === undefined ? { id: p.id } : { id: p.id, seed: p.seed })),
    results: allResults(state),
    byes: allByes(state),
    seed: state.seed,
    scheme: state.settings.points ?? defaultPointsScheme,
    tieBreaks: state.settings.tieBreaks ?? defaultTieBreaks,
  };
}

/** What pairing a round refused, with what the organizer can do about it. */
export const blockedReason = (violation: string): string =>
  `${violation}. The organizer may change the format (table sizes, byes), register players, check absent players in, or end the tournament`;

/** The next round as it would sit now, or null when there is none to come. */
export function outlook(state: TournamentState): Outlook | null {
  if (state.status === 'finished') return null;
  const current = currentRound(state);
  const round = (current?.round ?? 0) + 1;
  if (state.format.kind !== 'knockout' && round > state.format.rounds) return null;
  if (lastRoundPlayed(state)) return null;
  const knockoutGoesOn = state.format.kind === 'knockout' && current !== undefined;
  if (knockoutGoesOn && isFinalRound(state)) return null;
  const players = knockoutGoesOn ? knockoutFieldSize(state) : fieldOf(state, round).players.length;
  const seated = seating(players, state.format.tableSize, byesAllowed(state.format));
  if (seated === null) {
    const { min, max } = state.format.tableSize;
    const sizes = min === max ? `${min}` : `${min}–${max}`;
    const violation = players < min ? `${players} players are too few for a table of ${min}` : `${players} players cannot be seated at tables of ${sizes}${byesAllowed(state.format) ? '' : ' without byes'}`;
    return { round, players, tables: [], byes: 0, blocked: blockedReason(violation) };
  }
  return { round, players, tables: seated.tables, byes: seated.byes, blocked: null };
}

/** Whether the knockout's current round is its final (one main table, no bye). */
function isFinalRound(state: TournamentState): boolean {
  const round = currentRound(state)!;
  return round.tables.filter((t) => t.placement !== true).length === 1 && round.byes.length === 0;
}

/** Who goes on from the knockout's current round: up to `advance` of each main table
 * who may still (not withdrawn, absent or forfeited there), and its byes. */
function knockoutFieldSize(state: TournamentState): number {
  if (state.format.kind !== 'knockout') return 0;
  const round = currentRound(state)!;
  const paired = new Set(pairedPlayers(state).map((p) => p.id));
  const advance = state.format.advance;
  const fromTables = round.tables
    .filter((t) => t.placement !== true)
    .reduce((sum, t) => {
      const forfeited = new Set(state.results.get(t.gameId)?.forfeited ?? state.forfeits.get(t.gameId) ?? []);
      return sum + Math.min(advance, t.players.filter((p) => paired.has(p) && !forfeited.has(p)).length);
    }, 0);
  return fromTables + round.byes.filter((p) => paired.has(p)).length;
}
