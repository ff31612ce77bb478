// A game as lists and summaries show it, and the opaque cursor of the game list.
import { z } from 'zod';
import { ServiceError, serviceCodes } from '../errors.ts';
import type { GameResult } from '../domain/contract.ts';
import type { GameRecord } from '../events/records.ts';

/** `result` is the finished game's (null while it runs). */
export function summarize(record: GameRecord, result: GameResult | null = null) {
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
    seats: record.seats.map((s) => ({ seat: s.seat, name: s.name, open: s.tokenHash === null, bot: s.bot })),
    deadline: record.deadline?.toISOString() ?? null,
    createdAt: record.createdAt.toISOString(),
    finishedAt: record.finishedAt?.toISOString() ?? null,
    organizerId: record.organizerId,
    tournament: record.tournament,
    result,
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
