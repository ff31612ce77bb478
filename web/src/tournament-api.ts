// The tournament routes as the tournament pages use them: the client kit's typed REST
// client (web/src/api.ts) with a player's token or an organizer's key as the bearer,
// where the browser keeps them, and the tournament's live feed.
import { bearer, type Schemas } from '@spielwerk/client';
import { answer, rest } from './api.ts';

export type Summary = Schemas['TournamentSummary'];
export type Standings = Schemas['Standings'];
export type Mine = Schemas['MyTournament'];
export type Entry = Schemas['TournamentEntry'];
export type Webhook = Schemas['Webhook'];
export type Delivery = Schemas['WebhookDelivery'];
export type Outlook = Schemas['RoundOutlook'];
export type Registration = Schemas['TournamentRegistration'];
export type Format =
  | { kind: 'swiss'; rounds: number; tableSize: { min: number; max: number }; byes: boolean }
  | { kind: 'rotation'; rounds: number; tableSize: { min: number; max: number }; byes?: boolean }
  | { kind: 'knockout'; tableSize: { min: number; max: number }; advance: number; byes?: boolean; placement?: boolean };
export interface JoinLink {
  tournament: { id: string; name: string; gameType: string; format: unknown; status: string; players: number };
  registration: Registration;
  open: boolean;
  placesLeft: number | null;
}

const tournament = (id: string) => ({ path: { id } });
/** A fresh Idempotency-Key: an action retried by hand is a new one, a request retried
 * by the network is not. */
const once = () => ({ 'idempotency-key': crypto.randomUUID() });
// Bodies are built from forms; the server validates them against its schemas.
const loose = <T>(body: T) => body as never;

/** Routes anyone may read. */
export const publicApi = {
  summary: (id: string) => answer<Summary>(rest.GET('/tournaments/{id}', { params: tournament(id) })),
  standings: (id: string) => answer<Standings>(rest.GET('/tournaments/{id}/standings', { params: { ...tournament(id), query: { format: 'json' } } })),
  /** The games of a tournament (each with its result once finished), or one player's. */
  games: (id: string, player?: string) =>
    answer<{ games: Schemas['GameSummary'][] }>(rest.GET('/games', { params: { query: { tournament: id, limit: 100, ...(player === undefined ? {} : { player }) } } })).then((r) => r.games),
  joinLink: (code: string) => answer<JoinLink>(rest.GET('/registrations/{code}', { params: { path: { code } } })),
  /** `key`: the Idempotency-Key the page keeps for this registration, so a retry after
   * a lost answer gets the same entry and token. */
  join: (code: string, name: string, key: string) =>
    answer<{ tournament: string; entry: string; status: Entry['status']; player: string | null; token: string }>(
      rest.POST('/registrations/{code}', { params: { path: { code } }, headers: { 'idempotency-key': key }, body: { name } }),
    ),
};

/** Routes of a player, with their tournament token. */
export const playerApi = (token: string) => ({
  me: () => answer<Mine>(rest.GET('/tournaments/me', { headers: bearer(token) })),
  checkIn: () => answer<unknown>(rest.POST('/tournaments/me/check-in', { headers: bearer(token) })),
});

/** Routes of an organizer, with their key. */
export const organizerApi = (key: string) => {
  const auth = bearer(key);
  const post = <T>(path: string, id: string, body?: unknown, extra: Record<string, string> = {}) =>
    answer<T>(rest.POST(path as '/tournaments/{id}/rounds', { params: { path: { id, ...extra } } as never, headers: { ...auth, ...once() }, ...(body === undefined ? {} : { body: loose(body) }) } as never));
  return {
    list: () => answer<{ tournaments: { id: string; name: string; gameType: string; status: string; version: number }[] }>(rest.GET('/tournaments', { headers: auth })).then((r) => r.tournaments),
    create: (body: { name: string; gameType: string; format: Format; settings: Record<string, unknown> }) =>
      answer<{ tournament: Summary }>(rest.POST('/tournaments', { headers: auth, body: loose(body) })).then((r) => r.tournament),
    registration: (id: string) => answer<{ code: string | null; registration: Registration | null; open: boolean; pending: number; placesLeft: number | null }>(rest.GET('/tournaments/{id}/registration', { params: tournament(id), headers: auth })),
    openRegistration: (id: string, settings: { capacity: number | null; approval: 'automatic' | 'manual' }) => post<{ code: string }>('/tournaments/{id}/registration', id, settings),
    closeRegistration: (id: string) => post<unknown>('/tournaments/{id}/registration/close', id),
    entries: (id: string) => answer<{ entries: Entry[] }>(rest.GET('/tournaments/{id}/entries', { params: { ...tournament(id), query: {} }, headers: auth })).then((r) => r.entries),
    decide: (id: string, entry: string, action: 'approve' | 'refuse' | 'remove') => post<{ entry: Entry; outlook?: Outlook }>(`/tournaments/{id}/entries/{entry}/${action}`, id, undefined, { entry }),
    openCheckIn: (id: string) => post<unknown>('/tournaments/{id}/check-in/open', id, { closesAt: null }),
    closeCheckIn: (id: string) => post<unknown>('/tournaments/{id}/check-in/close', id),
    checkIn: (id: string, player: string) => post<unknown>('/tournaments/{id}/players/{player}/check-in', id, undefined, { player }),
    pair: (id: string, round: number) => post<Schemas['RoundPaired']>('/tournaments/{id}/rounds', id, { round }),
    withdraw: (id: string, player: string) => post<{ withdrawn: string; table: string | null; outlook: Outlook }>('/tournaments/{id}/players/{player}/withdraw', id, undefined, { player }),
    changeFormat: (id: string, format: Format) => post<{ outlook: Outlook; finished: boolean }>('/tournaments/{id}/format', id, { format }),
    end: (id: string, reason: string) => post<unknown>('/tournaments/{id}/end', id, { reason }),
    adjudicate: (id: string, gameId: string, verdict: { ranks: number[]; reason: string }) => post<unknown>('/tournaments/{id}/tables/{gameId}/adjudicate', id, verdict, { gameId }),
    correct: (id: string, gameId: string, verdict: { ranks: number[]; reason: string }) => post<unknown>('/tournaments/{id}/tables/{gameId}/correct', id, verdict, { gameId }),
    webhooks: () => answer<{ webhooks: Webhook[] }>(rest.GET('/webhooks', { headers: auth })).then((r) => r.webhooks),
    addWebhook: (url: string, tournamentId: string) => answer<{ webhook: Webhook; secret: string }>(rest.POST('/webhooks', { headers: auth, body: loose({ url, tournament: tournamentId }) })),
    deliveries: (webhook: string) =>
      answer<{ deliveries: Delivery[] }>(rest.GET('/webhooks/{webhook}/deliveries', { params: { path: { webhook }, query: {} }, headers: auth })).then((r) => r.deliveries),
    /** An export as a file: the key cannot ride on a link, so the page fetches it. */
    download: async (path: string): Promise<Blob> => {
      const response = await fetch(path, { headers: auth });
      if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
      return response.blob();
    },
  };
};
export type OrganizerApi = ReturnType<typeof organizerApi>;

/** Where the browser keeps secrets. A player's token is kept in localStorage per
 * tournament: it is the player's only way back to their tables, and only theirs
 * (shown once). An organizer's key goes to sessionStorage: it runs every tournament of
 * the organizer, so it lives as long as the tab (reloads and pages of the console)
 * and is gone when the tab closes, never shared with other tabs or left on the device. */
export const secrets = {
  token: (tournamentId: string) => localStorage.getItem(`spielwerk.tournament.${tournamentId}.token`),
  keepToken: (tournamentId: string, token: string) => localStorage.setItem(`spielwerk.tournament.${tournamentId}.token`, token),
  key: () => sessionStorage.getItem('spielwerk.organizer-key'),
  keepKey: (key: string) => sessionStorage.setItem('spielwerk.organizer-key', key),
  forgetKey: () => sessionStorage.removeItem('spielwerk.organizer-key'),
};

export type FeedState = 'connecting' | 'live' | 'reconnecting' | 'refused';

/** The tournament's live feed (GET /tournaments/{id}/live): `changed` after every batch
 * of events, with the last seq; a dropped socket is reopened with `after=` it. */
export function watchTournament(id: string, after: number, changed: (version: number) => void, state: (s: FeedState) => void): () => void {
  let seen = after;
  let stopped = false;
  let socket: WebSocket | null = null;
  let wait = 250;
  const open = () => {
    if (stopped) return;
    const url = new URL(`/tournaments/${encodeURIComponent(id)}/live?after=${seen}`, location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    socket = new WebSocket(url);
    socket.addEventListener('open', () => {
      wait = 250;
      state('live');
    });
    socket.addEventListener('message', (message) => {
      const data = JSON.parse(String(message.data)) as { type: string; version?: number };
      if (data.type === 'error') {
        stopped = true;
        state('refused');
      } else if (data.type === 'events' && data.version !== undefined) {
        seen = data.version;
        changed(seen);
      }
    });
    socket.addEventListener('close', () => {
      if (stopped) return;
      state('reconnecting');
      setTimeout(open, wait);
      wait = Math.min(wait * 2, 5000);
    });
  };
  state('connecting');
  open();
  return () => {
    stopped = true;
    socket?.close();
  };
}
