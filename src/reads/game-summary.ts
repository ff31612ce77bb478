// A game as lists and summaries show it, and the opaque cursor of the game list.
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

export function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as [string, string];
    const date = new Date(createdAt);
    if (Number.isNaN(date.getTime()) || typeof id !== 'string') throw new Error('bad cursor');
    return { createdAt: date, id };
  } catch {
    throw new ServiceError(serviceCodes.validation, 'the cursor is not one this service gave out');
  }
}
