// Porca Miseria tables through the API, with an injected clock: the table as a
// spectator sees it, and playing on until a card of a kind is face up.
import type { App } from '../../src/app.ts';
import type { PorcaView } from '../../src/domain/porca-miseria/index.ts';
import { command, type TestClock } from './app.ts';

export async function table(app: App, id: string): Promise<{ version: number; view: PorcaView; pending: { seats: number[]; deadline?: number } }> {
  return (await app.inject({ url: `/games/${id}` })).json();
}

/** Lets the server reveal and settle (deadlines only) until a card of `kind` is up. */
export async function untilCard(app: App, clock: TestClock, id: string, tokens: string[], kind: 'symbol' | 'touch'): Promise<PorcaView> {
  for (let i = 0; i < 63; i++) {
    const { view, pending } = await table(app, id);
    if (view.card?.kind === kind) return view;
    if (view.phase === 'reveal') {
      clock.now += 100;
      const answer = await command(app, id, tokens[view.startingSeat], { command: { type: 'reveal' } });
      if (answer.statusCode !== 200) throw new Error(answer.body);
    } else {
      clock.now = pending.deadline!;
      await app.services.scheduler.runDue();
    }
  }
  throw new Error(`no ${kind} card came up`);
}
