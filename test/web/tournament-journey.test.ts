// The whole journey as an organizer and 13 players make it, through the pages and the
// join link only: the organizer creates a 4-round Swiss of Pechvogel in the console,
// registers a webhook (a receiver on loopback that checks every signature) and opens
// registration with approval; 14 people register on the join page (one with a hostile
// name); the organizer approves 13 and refuses one, opens check-in; 12 check in on
// their pages, one stays absent. Round 1 seats 12 at tables of exactly 3; the organizer
// withdraws a player, which leaves 11, a field no tables of 3 seat, and adjudicates a
// table: the tournament blocks, the public page says why, and the organizer resolves it
// by allowing tables of 4. Nobody moves at the tables: from 5 s on, each seat is a
// no-show as soon as its turn comes, and a greedy bot plays it on (`action: "bot"`,
// `absentAfter: 0`, so the field stays), which keeps the journey to about a minute. At the end the standings
// shown on the public page are recomputed from the games export the console downloads.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import type { Page } from 'playwright-core';
import { standings } from '../../src/domain/tournament/standings.ts';
import { browser, screenshot, serve } from './browser.ts';
import { desktop, fillSwissForm, hostile, organizerKey, phone } from './tournament-browser.ts';

// Generous: on the shared machine at a load of 25 it took 200 s (60 s when quiet).
t.setTimeout(420_000);

interface Received {
  readonly body: string;
  readonly signature: string;
  readonly delivery: string;
}

/** A webhook receiver on loopback: keeps every request as it arrived. */
async function receiver(t: Test): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ body, signature: String(request.headers['spielwerk-signature']), delivery: String(request.headers['spielwerk-delivery']) });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, checked in constant time. */
function signed(secret: string, { body, signature }: Received): boolean {
  const parts = Object.fromEntries(signature.split(',').map((part) => part.split('=') as [string, string]));
  if (!parts['t'] || !parts['v1']) return false;
  const expected = createHmac('sha256', secret).update(`${parts['t']}.${body}`).digest();
  const given = Buffer.from(parts['v1'], 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** People act at once, a few at a time (each in a browser context of their own). */
async function inBatches<T>(items: readonly T[], act: (item: T) => Promise<void>, size = 5): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(act));
}

const said = (page: Page, words: string) => page.waitForSelector(`[data-testid=said]:has-text(${JSON.stringify(words)})`);

t.test('an organizer and 13 players, through the pages only', async (t) => {
  const started = performance.now();
  const phases: string[] = [];
  let phaseStart = started;
  const phase = (name: string) => {
    const now = performance.now();
    phases.push(`${name} ${((now - phaseStart) / 1000).toFixed(1)} s`);
    phaseStart = now;
  };
  const served = await serve(t, { webhooks: { allowPrivate: true, pollMs: 200 } });
  const chromium = await browser(t);
  const key = await organizerKey(served);
  const hook = await receiver(t);
  const errors: string[] = [];

  // The organizer: key, tournament, webhook, registration with approval.
  const console = await chromium.newPage(desktop);
  console.on('pageerror', (error) => errors.push(error.message));
  await console.goto(`${served.url}/organize`);
  await console.fill('[data-testid=key]', key);
  await console.click('[data-testid=use-key]');
  await fillSwissForm(console, 'Winterpokal', 4, 5);
  await console.click('[data-testid=t-create]');
  await console.waitForURL(/\/organize\/[0-9a-f-]{36}$/);
  const id = console.url().split('/').at(-1)!;

  await console.fill('[data-testid=w-url]', hook.url);
  await console.click('[data-testid=add-webhook]');
  const secret = (await console.locator('[data-testid=w-secret]').textContent())!;
  t.match(secret, /\S{20,}/, 'the signing secret is shown once');

  await console.selectOption('[data-testid=r-approval]', 'manual');
  await console.click('[data-testid=open-registration]');
  const link = (await console.locator('[data-testid=join-link]').getAttribute('href'))!;

  phase('setup and the console');
  // 14 people register through the link, each in a browser of their own; the last is
  // a double entry the organizer refuses.
  const names = [hostile, ...Array.from({ length: 12 }, (_, i) => `Player ${i + 2}`), 'Spam'];
  const tokens = new Map<string, string>();
  await inBatches(names, async (name) => {
    const page = await chromium.newPage(phone);
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(link);
    await page.fill('[data-testid=name]', name);
    await page.click('[data-testid=join]');
    tokens.set(name, await page.locator('[data-testid=token]').inputValue());
    t.match(await page.locator('[data-testid=joined] h2').textContent(), /waiting for approval/, `${name === hostile ? 'the hostile name' : name}: the entry waits`);
    await page.close();
  });
  const entryRows = console.locator('[data-testid=entries] tr[data-entry]');
  // The console follows the entries as they come, without a reload.
  await console.waitForFunction(() => document.querySelectorAll('[data-testid=entries] tr[data-status=pending]').length === 14);
  t.equal(await entryRows.count(), 14, 'the console lists every entry');
  for (const name of names) {
    const row = console.locator('[data-testid=entries] tr[data-entry]', { has: console.getByRole('cell', { name, exact: true }) });
    await row.locator(name === 'Spam' ? '[data-action=refuse]' : '[data-action=approve]').click();
    await console.waitForSelector(`[data-testid=entries] tr[data-entry="${await row.getAttribute('data-entry')}"][data-status=${name === 'Spam' ? 'refused' : 'approved'}]`);
  }
  phase('14 registrations and 14 decisions');
  await console.click('[data-testid=open-check-in]');
  await said(console, 'Check-in opened');

  // 12 check in on their own page; Player 13 does not.
  const absentee = 'Player 13';
  await inBatches(names.slice(0, 12), async (name) => {
    const page = await chromium.newPage(phone);
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${served.url}/t/${id}/me#token=${encodeURIComponent(tokens.get(name)!)}`);
    await page.click('[data-testid=check-in]');
    await page.waitForSelector('[data-testid=checked-in]:has-text("You are checked in")');
    await page.close();
  });
  await console.waitForFunction(() => document.querySelectorAll('[data-testid=player-list] tr[data-checked-in=true]').length === 12);

  phase('12 check-ins');
  // The public page, open from here on.
  const publicPage = await chromium.newPage(desktop);
  publicPage.on('pageerror', (error) => errors.push(error.message));
  await publicPage.goto(`${served.url}/t/${id}`);
  await publicPage.waitForSelector('[data-testid=feed-state].live');

  // Round 1: 12 at four tables of 3; the absentee is left out.
  await console.click('[data-testid=pair]');
  await said(console, 'Round 1 paired');
  await console.waitForSelector('#rounds-title ~ .round [data-action=adjudicate]');
  // Before anyone is a no-show (5 s): a withdrawal at the second table leaves 11, whom
  // no tables of exactly 3 seat; the first table is adjudicated.
  const tables = console.locator('[data-testid=rounds] li[data-game-id]');
  const leaving = (await tables.nth(1).locator('span').nth(1).textContent())!.split(', ').filter((name) => name !== hostile).at(-1)!;
  await console.locator('[data-testid=player-list] tr', { has: console.getByRole('cell', { name: leaving, exact: true }) }).locator('[data-action=withdraw]').click();
  await said(console, `${leaving} withdrawn`);
  t.match(await console.locator('[data-testid=said]').textContent(), /Round 2 could not be paired/, 'the withdrawal says at once what it will cause');
  const adjudicated = (await tables.first().getAttribute('data-game-id'))!;
  await console.locator(`[data-testid=rounds] li[data-game-id="${adjudicated}"] [data-action=adjudicate]`).click();
  await console.fill(`[data-testid=rounds] li[data-game-id="${adjudicated}"] [data-testid=reason]`, 'The table agreed the result after a dispute');
  await console.click(`[data-testid=rounds] li[data-game-id="${adjudicated}"] [data-action=end-table]`);
  await said(console, 'Table adjudicated');
  t.equal(await console.locator('[data-testid=player-list] tr[data-absent=not-checked-in]').count(), 1, 'one player is absent: not checked in');
  t.notMatch(await publicPage.locator('.round[data-round="1"]').textContent(), absentee, 'the absentee sits at no table of round 1');

  // Round 1 ends: blocked, on the public page live; the organizer allows tables of 4.
  await publicPage.waitForSelector('[data-testid=blocked]', { timeout: 60_000 });
  t.match(await publicPage.locator('[data-testid=blocked]').textContent(), /Round 2 cannot be paired/, 'the public page says why round 2 waits');
  await console.waitForSelector('[data-testid=blocked]');
  await screenshot(console, 'journey-console-blocked');
  await console.fill('[data-testid=f-max]', '4');
  await console.click('[data-testid=change-format]');
  await said(console, 'Format changed');
  await publicPage.waitForSelector('.round[data-round="2"]');
  t.equal(await publicPage.locator('[data-testid=blocked]').count(), 0, 'round 2 is paired at once');
  t.equal(await publicPage.locator('.round[data-round="2"] li[data-game-id]').count(), 3, '11 at tables of 4, 4 and 3');

  phase('round 1 until blocked and resolved');
  await publicPage.waitForSelector('[data-testid=status]:has-text("finished")', { timeout: 120_000 });
  phase('rounds 2 to 4');
  await publicPage.waitForSelector('[data-testid=standings] caption:has-text("(final)")');
  t.equal(await publicPage.locator('.round').count(), 4, 'four rounds were played');
  t.match(await publicPage.locator(`li[data-game-id="${adjudicated}"]`).textContent(), /adjudicated: The table agreed/, 'the adjudicated table says so');
  await screenshot(publicPage, 'journey-public-final');

  // The standings as shown, recomputed from the games export the console downloads.
  const shown = await publicPage.locator('[data-testid=standings] tbody tr').evaluateAll((rows) =>
    rows.map((r) => ({ player: r.getAttribute('data-player')!, rank: Number(r.querySelector('[data-col=rank]')!.textContent), points: Number(r.querySelector('[data-col=points]')!.textContent) })),
  );
  const [download] = await Promise.all([console.waitForEvent('download'), console.click('[data-testid=games-ndjson]')]);
  const lines = (await readFile((await download.path())!, 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
  t.equal(lines.length, 4 + 3 + 3 + 3, 'every table is a line of the export');
  const results = lines.map((line) => line.result);
  // No round had a bye (byes: false); the field is the players the page lists.
  const recomputed = standings(shown.map((s) => s.player), results, []);
  t.same(
    shown,
    recomputed.map((s) => ({ player: s.player, rank: s.rank, points: s.points })),
    'the standings on the public page are the export recomputed',
  );
  const byNoShow = results.filter((r) => (r.absent ?? []).length > 0).length;
  t.ok(byNoShow >= 12, `${byNoShow} tables had no-shows, their seats played by bots`);
  t.ok(results.some((r) => (r.forfeited ?? []).length > 0), 'the withdrawn player forfeited their table');

  // Every delivery arrived, signed with the secret.
  const expected = lines.length;
  for (;;) {
    await console.click('[data-testid=refresh-deliveries]');
    await console.waitForTimeout(300);
    const pending = await console.locator('[data-testid=deliveries] [data-status=pending]').count();
    if (pending === 0 && hook.received.length > 0) break;
  }
  const delivered = await console.locator('[data-testid=deliveries] [data-delivery]').evaluateAll((items) => items.map((i) => [i.getAttribute('data-delivery'), i.getAttribute('data-status')]));
  t.ok(delivered.every(([, status]) => status === 'delivered'), `the console lists ${delivered.length} deliveries, all delivered`);
  t.same(new Set(hook.received.map((r) => r.delivery)), new Set(delivered.map(([delivery]) => delivery)), 'the receiver got exactly the deliveries the console lists');
  t.ok(hook.received.every((r) => signed(secret, r)), `every one of ${hook.received.length} signatures checks out`);
  const types = hook.received.map((r) => JSON.parse(r.body).type as string);
  t.equal(types.filter((type) => type === 'TableFinished').length, expected, 'a TableFinished per table');
  for (const type of ['RoundPaired', 'StandingsChanged', 'TournamentBlocked', 'TournamentFinished']) t.ok(types.includes(type), `${type} delivered`);

  phase('export, recomputation and deliveries');
  // The absentee's page says why they sat out; a player's page lists their results.
  const absenteePage = await chromium.newPage(phone);
  await absenteePage.goto(`${served.url}/t/${id}/me#token=${encodeURIComponent(tokens.get(absentee)!)}`);
  await absenteePage.waitForSelector('[data-testid=absent]');
  t.match(await absenteePage.locator('[data-testid=absent]').textContent(), /did not check in/, 'the absentee is told why');
  const playerPage = await chromium.newPage(phone);
  await playerPage.goto(`${served.url}/t/${id}/me#token=${encodeURIComponent(tokens.get(hostile)!)}`);
  await playerPage.waitForFunction(() => document.querySelectorAll('[data-testid=results] li').length === 4);
  t.pass("the hostile-named player's page lists four results");
  t.same(errors, [], 'no script errors');
  phase('the last pages');
  t.comment(`journey took ${Math.round((performance.now() - started) / 1000)} s: ${phases.join(', ')}`);
});
