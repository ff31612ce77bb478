// Self-registration: the organizer opens a join link (a code) with a capacity, a
// closing time and automatic or manual approval; a player registers with a name and
// gets their tournament token once; the organizer approves, refuses or removes entries.
// Every change goes through the tournament's recipe (Tournaments.run), so entries are
// decided one after another on every instance and a capacity is never overrun: an
// entry waiting for approval is an `EntryReceived` in the log (without its name), an
// approved one a `PlayerRegistered`.
//
// A retried registration (the same Idempotency-Key) gets the same entry and the same
// token: the token is derived from the key and a salt kept with the entry, so neither
// the key nor the token is stored. Whoever sends the key gets the token: it must be
// random (a UUID), which the route checks by its length.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { hashToken, newToken, sha256 } from '../access/tokens.ts';
import { ServiceError, serviceCodes } from '../errors.ts';
import { activePlayers, type Registration, type TournamentEvent, type TournamentState } from './log.ts';
import type { Entry, EntryStatus, RegistrationStore } from './registration-store.ts';
import type { OrganizerId, Tournaments } from './tournaments.ts';

/** 12 characters of an alphabet without look-alikes (no 0/o, 1/l/i): 60 bits. */
const CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const newCode = (): string => [...randomBytes(12)].map((b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('');

const derivedToken = (salt: string, key: string): string => createHash('sha256').update(`${salt}:${key}`).digest('base64url').slice(0, 32);
const keyHashOf = (key: string): string => sha256(`join:${key}`);

export interface RegistrationSettings {
  readonly capacity: number | null;
  readonly closesAt: string | null;
  readonly approval: 'automatic' | 'manual';
}

export interface JoinAnswer {
  readonly tournament: string;
  readonly entry: string;
  readonly status: EntryStatus;
  /** The tournament player the entry became; null while it waits for approval. */
  readonly player: string | null;
  readonly token: string;
}

/** An entry as the organizer sees it. */
export const entryView = (e: Entry) => ({ id: e.id, name: e.name, status: e.status, player: e.playerId, createdAt: e.createdAt.toISOString(), decidedAt: e.decidedAt?.toISOString() ?? null });

export class Registrations {
  constructor(
    private readonly tournaments: Tournaments,
    private readonly store: RegistrationStore,
  ) {}

  /** Opens self-registration (or changes its settings); `newCode` replaces the join code. */
  open(organizerId: OrganizerId, id: string, settings: RegistrationSettings, newLink: boolean, idempotencyKey?: string) {
    return this.tournaments.run(id, organizerId, { open: settings, newLink }, idempotencyKey, async (state) => {
      if (closedFor(state) !== null) throw new ServiceError(serviceCodes.registrationClosed, closedFor(state)!);
      // Read in the recipe, so that a retry after a lost race keeps the winner's code.
      const existing = await this.store.code(id);
      const code = existing === null || newLink ? newCode() : existing;
      const event: TournamentEvent = { type: 'RegistrationOpened', ...settings };
      return {
        events: [event],
        answer: { code, registration: { ...settings, open: true } as Registration },
        extra: code === existing ? undefined : { within: (client) => this.store.setCode(client, id, code, new Date(this.tournaments.clock())) },
      };
    });
  }

  close(organizerId: OrganizerId, id: string, idempotencyKey?: string) {
    return this.tournaments.run(id, organizerId, { closeRegistration: true }, idempotencyKey, (state) => ({
      events: state.registration?.open === true ? [{ type: 'RegistrationClosed' }] : [],
      answer: { registration: state.registration === null ? null : { ...state.registration, open: false } },
    }));
  }

  /** The organizer's view: the code, the settings, the entries waiting. */
  async view(organizerId: OrganizerId, id: string) {
    const state = await this.tournaments.state(id, organizerId);
    return { code: await this.store.code(id), registration: state.registration, open: this.isOpen(state), pending: state.pendingEntries.size, placesLeft: placesLeft(state) };
  }

  /** What a join link shows anyone: the tournament and whether it takes entries. */
  async lookup(code: string) {
    const state = await this.byCode(code);
    return {
      tournament: { id: state.id, name: state.name, gameType: state.gameType, format: state.format, status: state.status, players: activePlayers(state).length },
      registration: state.registration!,
      open: this.isOpen(state),
      placesLeft: placesLeft(state),
    };
  }

  /** A player registers with a name; the answer carries their token, once (again only
   * to a retry with the same Idempotency-Key). */
  async join(code: string, name: string, idempotencyKey?: string): Promise<JoinAnswer> {
    const id = await this.tournamentByCode(code);
    const keyHash = idempotencyKey === undefined ? null : keyHashOf(idempotencyKey);
    const retried = keyHash === null ? null : await this.store.byKey(id, keyHash);
    if (retried !== null) return this.retried(retried, name, idempotencyKey!);
    const salt = keyHash === null ? null : randomBytes(16).toString('hex');
    const token = salt === null ? newToken() : derivedToken(salt, idempotencyKey!);
    const entryId = randomUUID();
    try {
      return await this.tournaments.run(id, null, null, undefined, (state) => {
        const closed = closedFor(state) ?? (this.isOpen(state) ? null : 'registration is closed');
        if (closed !== null) throw new ServiceError(serviceCodes.registrationClosed, closed);
        if (placesLeft(state) === 0) throw new ServiceError(serviceCodes.registrationFull, `the tournament has all ${state.registration!.capacity} players it takes`);
        const automatic = state.registration!.approval === 'automatic';
        const at = new Date(this.tournaments.clock());
        const registered = automatic ? this.tournaments.registering(state, [{ name, tokenHash: hashToken(token), entry: entryId }]) : null;
        const playerId = registered === null ? null : (registered.events[0] as Extract<TournamentEvent, { type: 'PlayerRegistered' }>).player.id;
        const entry: Entry = { id: entryId, tournamentId: id, name, tokenHash: hashToken(token), status: automatic ? 'approved' : 'pending', playerId, keyHash, tokenSalt: salt, createdAt: at, decidedAt: automatic ? at : null };
        return {
          events: registered?.events ?? [{ type: 'EntryReceived', entry: entryId }],
          answer: { tournament: id, entry: entryId, status: entry.status, player: playerId, token },
          extra: {
            players: playerId === null ? [] : [{ playerId, tokenHash: entry.tokenHash }],
            within: (client) => this.store.insert(client, entry),
          },
          unblocks: true,
        };
      });
    } catch (error) {
      // The same key sent twice at once: the second insert met the first one's row.
      if (keyHash !== null && (error as { code?: string }).code === '23505') {
        const first = await this.store.byKey(id, keyHash);
        if (first !== null) return this.retried(first, name, idempotencyKey!);
      }
      throw error;
    }
  }

  async entries(organizerId: OrganizerId, id: string, status?: EntryStatus) {
    await this.tournaments.state(id, organizerId);
    return (await this.store.list(id, status)).map(entryView);
  }

  /** The organizer takes a pending entry in: it becomes a player (paired from the next round). */
  approve(organizerId: OrganizerId, id: string, entryId: string, idempotencyKey?: string) {
    return this.deciding(organizerId, id, entryId, 'approve', idempotencyKey, (state, entry) => {
      const registered = this.tournaments.registering(state, [{ name: entry.name, tokenHash: entry.tokenHash, entry: entry.id }]);
      const playerId = (registered.events[0] as Extract<TournamentEvent, { type: 'PlayerRegistered' }>).player.id;
      return { events: registered.events, to: 'approved', playerId, players: [{ playerId, tokenHash: entry.tokenHash }] };
    });
  }

  /** The organizer turns a pending entry down. */
  refuse(organizerId: OrganizerId, id: string, entryId: string, idempotencyKey?: string) {
    return this.deciding(organizerId, id, entryId, 'refuse', idempotencyKey, (_state, entry) => ({ events: [{ type: 'EntryRefused', entry: entry.id }], to: 'refused', playerId: null, players: [] }));
  }

  /** The organizer takes an approved entry out again: its player is withdrawn (a
   * player who never played is left out of the standings). */
  remove(organizerId: OrganizerId, id: string, entryId: string, idempotencyKey?: string) {
    return this.tournaments.run(id, organizerId, { remove: entryId }, idempotencyKey, async (state) => {
      const entry = await this.entry(id, entryId);
      if (entry.status !== 'approved') throw new ServiceError(serviceCodes.entryDecided, `entry ${entryId} is ${entry.status}: only an approved entry is removed (refuse a pending one)`);
      const withdrawal = this.tournaments.withdrawal(state, entry.playerId!, 'removed');
      const at = new Date(this.tournaments.clock());
      return {
        ...withdrawal,
        answer: { entry: entryView({ ...entry, status: 'removed', decidedAt: at }), outlook: withdrawal.answer.outlook },
        extra: {
          within: async (client) => {
            await withdrawal.extra?.within?.(client);
            if (!(await this.store.decide(client, entryId, 'approved', 'removed', null, at))) throw new ServiceError(serviceCodes.entryDecided, `entry ${entryId} was decided meanwhile`);
          },
        },
      };
    });
  }

  /** The entry behind a tournament token that is no player's (yet). */
  byToken(token: string): Promise<Entry | null> {
    return this.store.byToken(hashToken(token));
  }

  private deciding(
    organizerId: OrganizerId,
    id: string,
    entryId: string,
    what: 'approve' | 'refuse',
    idempotencyKey: string | undefined,
    decide: (state: TournamentState, entry: Entry) => { events: TournamentEvent[]; to: EntryStatus; playerId: string | null; players: { playerId: string; tokenHash: string }[] },
  ) {
    return this.tournaments.run(id, organizerId, { [what]: entryId }, idempotencyKey, async (state) => {
      const entry = await this.entry(id, entryId);
      if (entry.status !== 'pending') throw new ServiceError(serviceCodes.entryDecided, `entry ${entryId} is ${entry.status} already`);
      const { events, to, playerId, players } = decide(state, entry);
      const at = new Date(this.tournaments.clock());
      return {
        events,
        answer: { entry: entryView({ ...entry, status: to, playerId, decidedAt: at }) },
        extra: {
          players,
          within: async (client) => {
            if (!(await this.store.decide(client, entryId, 'pending', to, playerId, at))) throw new ServiceError(serviceCodes.entryDecided, `entry ${entryId} was decided meanwhile`);
          },
        },
        unblocks: true,
      };
    });
  }

  private async entry(id: string, entryId: string): Promise<Entry> {
    const entry = await this.store.entry(id, entryId);
    if (entry === null) throw new ServiceError(serviceCodes.entryNotFound, `tournament ${id} has no entry ${entryId}`);
    return entry;
  }

  private retried(entry: Entry, name: string, key: string): JoinAnswer {
    if (entry.name !== name) throw new ServiceError(serviceCodes.idempotencyKeyReused, 'this Idempotency-Key registered another name');
    return { tournament: entry.tournamentId, entry: entry.id, status: entry.status, player: entry.playerId, token: derivedToken(entry.tokenSalt!, key) };
  }

  private async tournamentByCode(code: string): Promise<string> {
    const id = await this.store.tournamentByCode(code);
    if (id === null) throw new ServiceError(serviceCodes.joinCodeUnknown, 'no tournament has this join code');
    return id;
  }

  private async byCode(code: string): Promise<TournamentState> {
    const state = await this.tournaments.state(await this.tournamentByCode(code));
    if (state.registration === null) throw new ServiceError(serviceCodes.joinCodeUnknown, 'no tournament has this join code');
    return state;
  }

  private isOpen(state: TournamentState): boolean {
    const r = state.registration;
    return r !== null && r.open && closedFor(state) === null && (r.closesAt === null || Date.parse(r.closesAt) > this.tournaments.clock());
  }
}

/** Why the tournament takes no players at all any more, or null. */
function closedFor(state: TournamentState): string | null {
  if (state.status === 'finished') return 'the tournament is over';
  if (state.format.kind === 'knockout' && state.rounds.length > 0) return 'a knockout takes no players once it has started';
  return null;
}

/** Places the capacity leaves (players in, and entries waiting, take one); null: no limit. */
function placesLeft(state: TournamentState): number | null {
  const capacity = state.registration?.capacity ?? null;
  return capacity === null ? null : Math.max(0, capacity - activePlayers(state).length - state.pendingEntries.size);
}
