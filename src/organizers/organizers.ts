// Organizers and their API keys: who may create games, run tournaments and read
// results, and with which scopes. This folder owns the organizer and api_key tables and
// resolving a presented key; it may import src/access (token hashing), src/errors.ts and the generated Prisma client.
import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { ServiceError, serviceCodes } from '../errors.ts';
import { sha256 } from '../access/tokens.ts';
import { adminScope, newKey, parseKey, secretMatches, type Scope } from './keys.ts';

/** Who is calling with an API key. `keyId` is what a per-key rate limit counts by. */
export interface OrganizerPrincipal {
  /** null for the environment's admin key, which belongs to no organizer. */
  readonly organizerId: string | null;
  readonly keyId: string;
  readonly scopes: readonly string[];
}

export interface KeyInfo {
  readonly id: string;
  readonly name: string;
  readonly scopes: readonly string[];
  readonly createdAt: string;
  readonly expiresAt: string | null;
  readonly revokedAt: string | null;
}

export interface NewKeyRequest {
  readonly name: string;
  readonly scopes: readonly Scope[];
  readonly expiresAt?: Date;
}

type KeyRow = { id: string; name: string; scopes: string[]; createdAt: Date; expiresAt: Date | null; revokedAt: Date | null };

const info = (row: KeyRow): KeyInfo => ({
  id: row.id,
  name: row.name,
  scopes: row.scopes,
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt?.toISOString() ?? null,
  revokedAt: row.revokedAt?.toISOString() ?? null,
});

export class Organizers {
  private readonly adminKeyHash: string | null;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: () => number,
    /** SPIELWERK_ADMIN_KEY: may create organizers and their first keys. */
    adminKey?: string,
  ) {
    this.adminKeyHash = adminKey ? sha256(adminKey) : null;
  }

  async createOrganizer(name: string, firstKey: NewKeyRequest): Promise<{ organizer: { id: string; name: string }; key: string; keyInfo: KeyInfo }> {
    this.notExpired(firstKey);
    const id = randomUUID();
    const generated = newKey();
    const row = await this.prisma.organizer.create({
      data: {
        id,
        name,
        createdAt: new Date(this.clock()),
        keys: { create: { id: generated.id, name: firstKey.name, secretHash: generated.secretHash, scopes: [...firstKey.scopes], expiresAt: firstKey.expiresAt ?? null, createdAt: new Date(this.clock()) } },
      },
      include: { keys: true },
    });
    return { organizer: { id: row.id, name: row.name }, key: generated.key, keyInfo: info(row.keys[0]!) };
  }

  async createKey(organizerId: string, request: NewKeyRequest): Promise<{ key: string; keyInfo: KeyInfo }> {
    this.notExpired(request);
    await this.organizer(organizerId);
    const generated = newKey();
    const row = await this.prisma.apiKey.create({
      data: { id: generated.id, organizerId, name: request.name, secretHash: generated.secretHash, scopes: [...request.scopes], expiresAt: request.expiresAt ?? null, createdAt: new Date(this.clock()) },
    });
    return { key: generated.key, keyInfo: info(row) };
  }

  async listKeys(organizerId: string): Promise<KeyInfo[]> {
    await this.organizer(organizerId);
    const rows = await this.prisma.apiKey.findMany({ where: { organizerId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    return rows.map(info);
  }

  /** Revoking is final and idempotent: the first revocation's time stays. */
  async revokeKey(organizerId: string, keyId: string): Promise<KeyInfo> {
    await this.prisma.apiKey.updateMany({ where: { id: keyId, organizerId, revokedAt: null }, data: { revokedAt: new Date(this.clock()) } });
    const row = await this.prisma.apiKey.findFirst({ where: { id: keyId, organizerId } });
    if (row === null) throw new ServiceError(serviceCodes.keyNotFound, `organizer ${organizerId} has no key ${keyId}`);
    return info(row);
  }

  /** The organizer behind a presented key; a key that is not valid now is refused, never ignored. */
  async resolve(presented: string): Promise<OrganizerPrincipal> {
    if (this.adminKeyHash !== null && secretMatches(sha256(presented), this.adminKeyHash)) {
      return { organizerId: null, keyId: 'admin', scopes: [adminScope] };
    }
    const parsed = parseKey(presented);
    const row = parsed === null ? null : await this.prisma.apiKey.findUnique({ where: { id: parsed.id } });
    if (parsed === null || row === null || !secretMatches(parsed.secretHash, row.secretHash)) {
      throw new ServiceError(serviceCodes.keyInvalid, 'this API key is not known here');
    }
    if (row.revokedAt !== null) throw new ServiceError(serviceCodes.keyRevoked, `API key ${row.id} was revoked at ${row.revokedAt.toISOString()}`);
    if (row.expiresAt !== null && row.expiresAt.getTime() <= this.clock()) throw new ServiceError(serviceCodes.keyExpired, `API key ${row.id} expired at ${row.expiresAt.toISOString()}`);
    return { organizerId: row.organizerId, keyId: row.id, scopes: row.scopes };
  }

  /** A key that would be refused from its first use is a mistake, not a key. */
  private notExpired(request: NewKeyRequest): void {
    if (request.expiresAt !== undefined && request.expiresAt.getTime() <= this.clock()) {
      throw new ServiceError(serviceCodes.validation, `expiresAt ${request.expiresAt.toISOString()} is already past: a key must expire in the future`);
    }
  }

  private async organizer(id: string): Promise<void> {
    if ((await this.prisma.organizer.findUnique({ where: { id }, select: { id: true } })) === null) {
      throw new ServiceError(serviceCodes.organizerNotFound, `no organizer ${id}`);
    }
  }
}

/** The organizer a request acts for, with the scope it needs; else a problem. */
export function requireScope(principal: OrganizerPrincipal | null, scope: Scope | typeof adminScope): OrganizerPrincipal {
  if (principal === null) throw new ServiceError(serviceCodes.keyRequired, `this needs an organizer's API key with scope ${scope} (Authorization: Bearer sw_…)`);
  if (!principal.scopes.includes(scope)) throw new ServiceError(serviceCodes.scopeMissing, `API key ${principal.keyId} lacks the scope ${scope}`, { scope });
  return principal;
}

/** An organizer's own key acting on its organizer's things (the admin key acts on any). */
export function requireOwnOrganizer(principal: OrganizerPrincipal, organizerId: string): void {
  if (principal.organizerId !== null && principal.organizerId !== organizerId) {
    throw new ServiceError(serviceCodes.organizerNotFound, `no organizer ${organizerId}`);
  }
}
