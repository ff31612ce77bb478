// src/access/ is who is calling: seat and referee tokens and the principal and viewer
// they stand for. It may import src/domain, src/events (records) and src/errors.ts.
//
// Who is calling, from the bearer token, and what they may see.
import type { Viewer } from '../domain/contract.ts';
import { ServiceError, serviceCodes } from '../errors.ts';
import type { GameRecord } from '../events/records.ts';
import { hashMatches, hashToken } from './tokens.ts';

export type Principal =
  | { readonly kind: 'anonymous' }
  | { readonly kind: 'seat'; readonly seat: number }
  | { readonly kind: 'referee' };

/** A token that fits no seat of this game is refused rather than treated as a
 * spectator: a client with a typo should hear about it. */
export function resolvePrincipal(record: GameRecord, token: string | undefined): Principal {
  if (token === undefined) return { kind: 'anonymous' };
  const presented = hashToken(token);
  if (hashMatches(presented, record.refereeTokenHash)) return { kind: 'referee' };
  const seat = record.seats.find((s) => hashMatches(presented, s.tokenHash));
  if (seat !== undefined) return { kind: 'seat', seat: seat.seat };
  throw new ServiceError(serviceCodes.forbidden, 'this token belongs to no seat of this game');
}

/** The referee of a supplied-chance game records a physical game and enters every
 * seat's moves, so it sees everything; elsewhere the referee is a spectator. */
export function ownViewer(record: GameRecord, principal: Principal): Viewer {
  switch (principal.kind) {
    case 'seat':
      return { kind: 'seat', seat: principal.seat };
    case 'referee':
      return record.chanceMode === 'supplied' ? { kind: 'all' } : { kind: 'spectator' };
    case 'anonymous':
      return { kind: 'spectator' };
  }
}

/** Anyone may look as a spectator; another seat's eyes (or all) only once the game is over. */
export function allowedViewer(record: GameRecord, principal: Principal, requested: Viewer | undefined): Viewer {
  const own = ownViewer(record, principal);
  if (requested === undefined) return own;
  if (requested.kind === 'spectator' || record.status === 'finished') return requested;
  if (own.kind === 'all') return requested;
  if (requested.kind === 'seat' && own.kind === 'seat' && requested.seat === own.seat) return requested;
  throw new ServiceError(serviceCodes.forbidden, 'while the game runs you may look only through your own eyes or as a spectator');
}

export const actorLabel = (principal: Principal, seat: number | null): string =>
  principal.kind === 'referee' ? (seat === null ? 'referee' : `referee:seat:${seat}`) : principal.kind === 'seat' ? `seat:${principal.seat}` : 'system';
