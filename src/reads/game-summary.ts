// A game as lists and summaries show it, and the opaque cursor of the game list.
import { z } from 'zod';
import { ServiceError, serviceCodes } from '../errors.ts';
import type { GameResult } from '../domain/contract.ts';
import { waitingFor, type GameRecord } from '../events/records.ts';

/** How a game is over: its result (null while it runs, and for a game that ended
 * without one) and its ending besides its rules (resigned, aborted, expired). */
export interface GameEnd {
  readonly result: GameResult | null;
  readonly ending: { readonly kind: string } | null;
}

export const endOf = (game: { result(state: unknown): GameResult | null; ending?(state: unknown): { readonly kind: string } | null }, state: unknown): GameEnd => ({
  result: game.result(state),
  ending: game.ending?.(state) ?? null,
});

export function summarize(record: GameRecord, { result, ending }: GameEnd = { result: null, ending: null }) {
  return {
    id: record.id,
    type: record.type,
    rulesVersion: record.rulesVersion,
    options: record.options,
    status: record.status,
    version: record.version,
    chance: record.chanceMode,
    seedHash: record.seedHash,
    seed: record.status === 'finished' ? record.seed : null,
    seedNonce: record.status === 'finished' ? record.seedNonce : null,
    seedChosenBy: record.seedChosenBy,
    seats: record.seats.map((s) => ({ seat: s.seat, name: s.name, open: s.tokenHash === null, bot: s.bot })),
    deadline: record.deadline?.toISOString() ?? null,
    waitingFor: waitingFor(record),
    startedAt: record.status === 'open' ? null : (record.startedAt ?? record.createdAt).toISOString(),
    rematch: record.rematchId === null ? null : { gameId: record.rematchId },
    botThinkMs: record.botThinkMs,
    createdAt: record.createdAt.toISOString(),
    finishedAt: record.finishedAt?.toISOString() ?? null,
    organizerId: record.organizerId,
    tournament: record.tournament,
    result,
    ending,
  };
}

export const encodeCursor = (record: GameRecord): string =>
  Buffer.from(JSON.stringify([record.createdAt.toISOString(), record.id])).toString('base64url');

/** What encodeCursor writes, checked in full: the list query compares both parts with
 * the database's columns, which refuse a date out of their range or an id that is no uuid. */
const Cursor = z.tuple([
  z.iso.datetime().refine((at) => {
    const year = new Date(at).getUTCFullYear();
    return year >= 1970 && year <= 9999;
  }),
  z.uuid(),
]);

export function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  let decoded: unknown = null;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString());
  } catch {
    // not JSON: refused below
  }
  const parsed = Cursor.safeParse(decoded);
  if (!parsed.success) throw new ServiceError(serviceCodes.validation, 'the cursor is not one this service gave out');
  return { createdAt: new Date(parsed.data[0]), id: parsed.data[1] };
}
