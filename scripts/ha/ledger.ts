// The failover test's verdict on what it was told, against what the database holds
// after all the failovers: every acknowledged command in its game's log exactly once,
// at the versions its answer gave (events carry the command's Idempotency-Key), and
// every spectator pushed every version of its game once, in order, with the events the
// log holds.
import type { Acked, Watched } from './load.ts';
import { queryOnce } from './cluster.ts';

export interface Ledger {
  readonly acked: number;
  /** Acknowledged commands whose events are not in the log where the answer put them. */
  readonly lost: number;
  /** Acknowledged commands whose key is on more events than the answer gave: applied twice. */
  readonly duplicated: number;
  /** Acknowledged commands sent more than once (after a 503 or a network error). */
  readonly retried: number;
  /** Of those, the ones whose events were written before their last attempt was sent:
   * the retry was answered from the first attempt's record (its Idempotency-Key). */
  readonly replayed: number;
  readonly spectators: number;
  /** Versions a spectator was never pushed, pushed twice, or pushed with another event than the log's. */
  readonly spectatorGaps: number;
  readonly spectatorDuplicates: number;
  readonly spectatorMismatches: number;
  readonly faults: readonly string[];
}

export async function checkLedger(databaseUrl: string, acked: readonly Acked[], watched: readonly Watched[]): Promise<Ledger> {
  const games = watched.map((w) => w.gameId);
  const rows = (await queryOnce(
    databaseUrl,
    `SELECT game_id::text AS game, seq, type, command_id AS key, extract(epoch FROM at) * 1000 AS at FROM event WHERE game_id = ANY('{${games.join(',')}}'::uuid[]) ORDER BY game_id, seq`,
  )) as { game: string; seq: number; type: string; key: string | null; at: string }[];
  const logs = new Map<string, { seq: number; type: string }[]>();
  const byKey = new Map<string, number[]>();
  /** When each command's events were written (the deciding instance's clock, ms). */
  const writtenAt = new Map<string, number>();
  for (const { game, seq, type, key, at } of rows) {
    let log = logs.get(game);
    if (log === undefined) logs.set(game, (log = []));
    log.push({ seq, type });
    if (key === null) continue;
    const seqs = byKey.get(`${game}/${key}`);
    if (seqs === undefined) byKey.set(`${game}/${key}`, [seq]);
    else seqs.push(seq);
    writtenAt.set(`${game}/${key}`, Number(at));
  }
  const faults: string[] = [];
  let lost = 0;
  let duplicated = 0;
  const retried = acked.filter((a) => a.attempts > 1);
  const replayed = retried.filter((a) => (writtenAt.get(`${a.gameId}/${a.key}`) ?? Infinity) < a.sentAt).length;
  for (const { gameId, key, from, to } of acked) {
    const seqs = byKey.get(`${gameId}/${key}`) ?? [];
    const span = Array.from({ length: to - from + 1 }, (_, i) => from + i);
    if (!span.every((seq) => seqs.includes(seq))) {
      lost++;
      faults.push(`acknowledged command ${key} (game ${gameId}, versions ${from}-${to}) is not in the log there: its key is at [${seqs.join(',')}]`);
    } else if (seqs.length > span.length) {
      duplicated++;
      faults.push(`acknowledged command ${key} (game ${gameId}, versions ${from}-${to}) was applied more than once: its key is at [${seqs.join(',')}]`);
    }
  }
  let spectatorGaps = 0;
  let spectatorDuplicates = 0;
  let spectatorMismatches = 0;
  for (const { gameId, seqs, types, playedTo } of watched) {
    // What the game's server did after its spectator was closed (a deadline firing
    // later) is not the spectator's to have seen; every update it had was checked to
    // continue the last as it came.
    const log = (logs.get(gameId) ?? []).filter(({ seq }) => seq <= Math.max(playedTo, seqs.at(-1) ?? 0));
    const seen = new Map<number, number>();
    seqs.forEach((seq, i) => {
      seen.set(seq, (seen.get(seq) ?? 0) + 1);
      if (log[seq - 1]?.type !== types[i]) spectatorMismatches++;
    });
    const gaps = log.filter(({ seq }) => !seen.has(seq)).length;
    const twice = [...seen.values()].filter((n) => n > 1).length;
    spectatorGaps += gaps;
    spectatorDuplicates += twice;
    if (gaps > 0 || twice > 0) {
      const missed = log.filter(({ seq }) => !seen.has(seq)).map(({ seq, type }) => `${seq} ${type}`);
      faults.push(`the spectator of game ${gameId} missed ${gaps} (${missed.slice(0, 5).join(', ')}) and was pushed ${twice} twice of its ${log.length} versions`);
    }
  }
  if (spectatorMismatches > 0) faults.push(`${spectatorMismatches} events pushed to spectators differ from the log`);
  return { acked: acked.length, lost, duplicated, retried: retried.length, replayed, spectators: watched.length, spectatorGaps, spectatorDuplicates, spectatorMismatches, faults };
}
