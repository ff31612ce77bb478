// The seats this browser created or joined, kept in localStorage so a seat's link
// survives a reload of the lobby ("Your games"). Tokens stay on this device: the
// lobby shows them only as links with a fragment, which browsers never send.
export interface MySeat {
  readonly id: string;
  readonly seat: number;
  readonly token: string;
  readonly type: string;
  readonly name: string;
}

const key = 'spielwerk.seats';
/** Enough for any person's recent games; the oldest are forgotten first. */
const kept = 50;

export function mySeats(): MySeat[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(key) ?? '[]');
    return Array.isArray(stored) ? (stored as MySeat[]).filter((s) => typeof s?.id === 'string' && typeof s.token === 'string') : [];
  } catch {
    return [];
  }
}

export function remember(seat: MySeat): void {
  const others = mySeats().filter((s) => !(s.id === seat.id && s.seat === seat.seat));
  try {
    localStorage.setItem(key, JSON.stringify([seat, ...others].slice(0, kept)));
  } catch {
    // Storage full or switched off: the page still works, only without "Your games".
  }
}

// The referee tokens of the games this browser created, so their creator's play and
// watch pages can start a table that waits for its people ("Start anyway").
const refereeKey = 'spielwerk.referees';

const referees = (): Record<string, string> => {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(refereeKey) ?? '{}');
    return typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? (stored as Record<string, string>) : {};
  } catch {
    return {};
  }
};

export const refereeOf = (id: string): string | undefined => referees()[id];

export function rememberReferee(id: string, token: string): void {
  const kept = Object.entries(referees()).filter(([game]) => game !== id).slice(-(50 - 1));
  try {
    localStorage.setItem(refereeKey, JSON.stringify(Object.fromEntries([...kept, [id, token]])));
  } catch {
    // Storage full or switched off: the creator only loses "Start anyway".
  }
}

export const seatLink = (s: { id: string; token: string }): string => `${location.origin}/play/${s.id}#token=${encodeURIComponent(s.token)}`;
