// A timeout the rules refuse is not retried at the same version: the poll finds the
// same due deadline every time, and retrying it warned once a second forever. One the
// database could not take (unavailable, failing over) is. The
// game's deadline is real (a Pechvogel reaction window stored in Postgres); only the
// command handler is replaced, by one that refuses every timeout as the rules would.
import t from 'tap';
import type { CommandHandler } from '../../src/commands/command-handler.ts';
import { ServiceError } from '../../src/errors.ts';
import type { EventStore } from '../../src/events/store.ts';
import { DeadlineScheduler } from '../../src/jobs/deadline-scheduler.ts';
import type { Logger } from '../../src/lib/logger.ts';
import { command, createGame, testApp, testClock } from '../helpers/app.ts';

t.test('a refused timeout is tried once per version and said once', async (t) => {
  const clock = testClock();
  const app = await testApp(t, { clock });
  const { id, tokens } = await createGame(app, { type: 'pechvogel', seats: [{}, {}], seed: 'refused' });
  // Throws until one opens a reaction window (a deadline in the game row).
  for (let i = 0; i < 20 && (await app.inject({ url: `/games/${id}` })).json().pending.deadline === undefined; i++) {
    const mine = (await app.inject({ url: `/games/${id}`, headers: { authorization: `Bearer ${tokens[0]}` } })).json();
    const seat = mine.legalCommands.length > 0 ? 0 : 1;
    const legal = (await app.inject({ url: `/games/${id}`, headers: { authorization: `Bearer ${tokens[seat]}` } })).json().legalCommands;
    await command(app, id, tokens[seat], { command: legal[0] });
  }
  const { version, pending } = (await app.inject({ url: `/games/${id}` })).json();
  t.type(pending.deadline, 'number', 'a reaction window with a deadline');
  clock.now = pending.deadline + 1;

  const fired: number[] = [];
  let refusal = 'pechvogel/no-deadline';
  const refusing = {
    handle: async (input: { expectedVersion?: number }) => {
      fired.push(input.expectedVersion!);
      throw new ServiceError(refusal, 'refused', {}, 'rule');
    },
  } as unknown as CommandHandler;
  const warnings: unknown[] = [];
  const log = { warn: (...args: unknown[]) => warnings.push(args), error: () => undefined, info: () => undefined } as unknown as Logger;
  const scheduler = new DeadlineScheduler(app.services.store, refusing, clock, log, { timers: false, pollMs: 1000 });
  for (let poll = 0; poll < 5; poll++) await scheduler.runDue();
  t.same(fired, [version], 'fired once for the version, not at every poll');
  t.equal(warnings.length, 1, 'and warned once');

  // Too early says "later", not "never": a timer ahead of the rules' clock is retried.
  refusal = 'pechvogel/too-early';
  const retrying = new DeadlineScheduler(app.services.store, refusing, clock, log, { timers: false, pollMs: 1000 });
  fired.length = 0;
  for (let poll = 0; poll < 3; poll++) await retrying.runDue();
  t.same(fired, [version, version, version], 'a too-early refusal is tried again at the next poll');
  t.equal(warnings.length, 1, 'without a warning');

  // A database that fails over under the timeout (its connection cut by the primary's
  // shutdown) says "later" too: remembered, the game waited for that deadline for good.
  const failingOver = {
    handle: async (input: { expectedVersion?: number }) => {
      fired.push(input.expectedVersion!);
      throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    },
  } as unknown as CommandHandler;
  const afterFailover = new DeadlineScheduler(app.services.store, failingOver, clock, log, { timers: false, pollMs: 1000 });
  fired.length = 0;
  for (let poll = 0; poll < 3; poll++) await afterFailover.runDue();
  t.same(fired, [version, version, version], 'a timeout the database could not take is tried again at the next poll');
  t.equal(warnings.length, 1, 'without a warning');
});

t.test('a poll that finds the database unavailable is warned of, not logged as an error', async (t) => {
  const lines: string[] = [];
  const log = { warn: () => lines.push('warn'), error: () => lines.push('error'), info: () => undefined } as unknown as Logger;
  const failingOver = { dueGames: async () => Promise.reject(Object.assign(new Error('the database system is starting up'), { code: '57P03' })) } as unknown as EventStore;
  const broken = { dueGames: async () => Promise.reject(new TypeError('a bug of ours')) } as unknown as EventStore;
  await new DeadlineScheduler(failingOver, {} as CommandHandler, Date.now, log, { timers: false, pollMs: 1000 }).runDue();
  await new DeadlineScheduler(broken, {} as CommandHandler, Date.now, log, { timers: false, pollMs: 1000 }).runDue();
  t.same(lines, ['warn', 'error']);
});
