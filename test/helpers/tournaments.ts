// Driving tournaments in tests: create one through the API, and let the server's bots
// play every table to the end with the test clock moved past each deadline.
import type { App } from '../../src/app.ts';
import { bearerHeader, type TestClock } from './app.ts';

export async function createTournament(app: App, key: string, body: Record<string, unknown>) {
  const response = await app.inject({ method: 'POST', url: '/tournaments', headers: bearerHeader(key), payload: body });
  if (response.statusCode !== 201) throw new Error(`tournament failed: ${response.statusCode} ${response.body}`);
  return response.json() as { tournament: { id: string; version: number }; players: { player: string; token: string | null }[] };
}

/** Settings that keep tables short: Pechvogel's reaction window at a second. Tests
 * that play bots spread these, so that what makes bots quick is set in one place. */
export const quick = { options: { reactionSeconds: 1 } } as const;

export const botPlayers = (n: number, bots = ['greedy', 'random']) => Array.from({ length: n }, (_, i) => ({ name: `Bot ${i + 1}`, bot: bots[i % bots.length]!, externalId: `bot-${i + 1}` }));

/** Bots move, deadlines pass, finished tables are recorded, next rounds are paired;
 * until `done` holds (bounded). */
export async function playOn(app: App, clock: TestClock, done: () => Promise<boolean>, limit = 20_000): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await app.services.bots.idle();
    await app.services.tournaments.idle();
    if (await done()) return;
    clock.now += 60_000;
    await app.services.scheduler.runDue();
  }
  throw new Error('the tournament does not end');
}

export async function tournamentStatus(app: App, id: string): Promise<string> {
  return (await app.inject({ url: `/tournaments/${id}` })).json().status;
}
