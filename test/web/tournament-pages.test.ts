// The tournament pages in a real browser at 1440×900 and 390×844: the organizer's
// console creates a tournament from its form and opens registration; three people
// register through the join link's page (one with a hostile name, shown as text and
// never run); the public page follows the pairing live through the feed, links every
// table to its game and shows why the tournament is blocked after a withdrawal; the
// player's page shows their table with a play link. axe-core finds nothing on any page.
import t from 'tap';
import type { Browser, Page } from 'playwright-core';
import { browser, screenshot, serve } from './browser.ts';
import { accessibleAndFits, desktop, fillSwissForm, hostile, organizerKey, phone } from './tournament-browser.ts';

t.setTimeout(300_000);

async function register(chromium: Browser, link: string, name: string): Promise<{ page: Page; token: string }> {
  const page = await chromium.newPage(phone);
  await page.goto(link);
  await page.fill('[data-testid=name]', name);
  await page.click('[data-testid=join]');
  const token = await page.locator('[data-testid=token]').inputValue();
  return { page, token };
}

t.test('console, join link, public and player pages', async (t) => {
  const served = await serve(t);
  const chromium = await browser(t);
  const key = await organizerKey(served);
  const errors: string[] = [];
  const dialogs: string[] = [];
  const watch = (page: Page) => {
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('dialog', (dialog) => (dialogs.push(dialog.message()), void dialog.dismiss()));
  };

  // The organizer pastes the key once and creates the tournament from the form.
  const console = await chromium.newPage(desktop);
  watch(console);
  await console.goto(`${served.url}/organize`);
  await accessibleAndFits(t, console, 'the key form');
  // A key that is not one is refused in words, and forgotten on request.
  await console.fill('[data-testid=key]', `sw_nokey1234567_${'x'.repeat(43)}`);
  await console.click('[data-testid=use-key]');
  t.equal(await console.locator('[data-testid=problem]').textContent(), 'this API key is not known here', 'a wrong key: the refusal in words');
  await console.click('[data-testid=forget-key]');
  t.equal(await console.evaluate(() => sessionStorage.length), 0, 'forgotten');
  await console.fill('[data-testid=key]', key);
  await console.click('[data-testid=use-key]');
  await fillSwissForm(console, 'Herbstpokal', 2, 6);
  await accessibleAndFits(t, console, 'the console with the creation form');
  await console.click('[data-testid=t-create]');
  await console.waitForURL(/\/organize\/[0-9a-f-]{36}$/);
  const id = console.url().split('/').at(-1)!;
  const created = await served.api('GET', `/tournaments/${id}`);
  t.same(created.format, { kind: 'swiss', rounds: 2, tableSize: { min: 3, max: 3 }, byes: false }, 'the format from the form');
  t.match(created.settings, { advance: 'auto', noShow: { afterSeconds: 6, action: 'bot', absentAfter: 0 }, options: { reactionSeconds: 1 } }, 'the settings from the form');
  t.equal(await console.evaluate(() => sessionStorage.length + localStorage.length), 1, 'the key is kept in sessionStorage only');

  await console.click('[data-testid=open-registration]');
  const link = await console.locator('[data-testid=join-link]').getAttribute('href');
  t.match(link, new RegExp(`^${served.url}/join/[A-Za-z0-9]+$`), 'the join link is shown');

  // Three people register on a phone; the first name is hostile.
  const first = await register(chromium, link!, hostile);
  watch(first.page);
  t.match(first.token, /\S{20,}/, 'the token is shown once');
  t.equal(await first.page.evaluate((tid) => localStorage.getItem(`spielwerk.tournament.${tid}.token`), id), first.token, 'and kept in localStorage');
  t.equal(await first.page.locator('img').count(), 0, 'the hostile name made no element');
  await accessibleAndFits(t, first.page, 'the join page with the token');
  await first.page.waitForSelector('[data-testid=about]:has-text("1 player so far")', { timeout: 5_000 }).then(
    () => t.pass('the page counts the new entry among the players'),
    async () => t.fail(`the page still says: ${await first.page.locator('[data-testid=about]').textContent()}`),
  );
  await screenshot(first.page, 'tournament-join-phone');
  const others = [await register(chromium, link!, 'Bruno'), await register(chromium, link!, 'Kelly')];

  const unknown = await chromium.newPage(phone);
  await unknown.goto(`${served.url}/join/nosuchcode`);
  t.equal(await unknown.locator('[data-testid=problem]').textContent(), 'no tournament has this join code', 'an unknown join code: the refusal in words');
  await unknown.close();

  // The public page, open before round 1, follows the pairing through the feed.
  const publicPage = await chromium.newPage(desktop);
  watch(publicPage);
  await publicPage.goto(`${served.url}/t/${id}`);
  await publicPage.waitForSelector('[data-testid=feed-state].live');
  t.equal(await publicPage.locator('[data-game-id]').count(), 0, 'no table before round 1');
  await console.locator('[data-testid=player-list] [data-player]').nth(2).waitFor();
  await console.click('[data-testid=pair]');
  await publicPage.waitForSelector('.round[data-round="1"] [data-game-id]');
  const gameId = (await publicPage.locator('[data-game-id]').first().getAttribute('data-game-id'))!;
  t.equal(await publicPage.locator(`a[href="/watch/${gameId}"]`).count(), 1, 'the table links to its watch page, without a reload');
  t.match(await publicPage.locator(`[data-game-id="${gameId}"]`).textContent(), hostile, 'the hostile name is shown as text');
  await accessibleAndFits(t, publicPage, 'the public page in round 1');

  // A withdrawal leaves two players for tables of exactly three: the console says so at
  // once; round 1 plays on (bots take the seats nobody plays after 6 s).
  await console.click(`[data-testid=player-list] tr:has-text("Kelly") [data-action=withdraw]`);
  await console.waitForSelector('[data-testid=said]:has-text("Kelly withdrawn")');
  t.match(await console.locator('[data-testid=said]').textContent(), /Kelly withdrawn\. Round 2 could not be paired/, "the withdrawal's answer says what it will cause");

  // The player's page: the table now, with a play link that carries the token in its fragment.
  const mine = first.page;
  await mine.click('[data-testid=my-page]');
  await mine.waitForSelector('[data-testid=play-link]');
  t.equal(await mine.locator('[data-testid=play-link]').getAttribute('href'), `/play/${gameId}#token=${encodeURIComponent(first.token)}`, 'your table now, with a play link');
  t.equal(await mine.locator('[data-testid=my-name]').textContent(), hostile, 'your name, as text');
  await accessibleAndFits(t, mine, "the player's page");
  await screenshot(mine, 'tournament-player-phone');

  // Round 1 ends: the public page says live why round 2 waits.
  await publicPage.waitForSelector('[data-testid=blocked]', { timeout: 60_000 });
  t.match(await publicPage.locator('[data-testid=blocked]').textContent(), /Round 2 cannot be paired/, 'the blocked reason is on the public page, live');
  t.equal(await publicPage.locator(`a[href="/replay/${gameId}"]`).count(), 1, 'a finished table links to its replay');
  await publicPage.waitForSelector('[data-testid=standings] [data-player]');
  await accessibleAndFits(t, publicPage, 'the public page, blocked, on a desktop');
  await screenshot(publicPage, 'tournament-public-desktop');
  await console.waitForSelector('[data-testid=blocked]');
  await accessibleAndFits(t, console, 'the console, blocked');
  await screenshot(console, 'tournament-console-desktop');

  // The player's results; then the organizer corrects the table, and both pages follow.
  await mine.waitForSelector('[data-testid=results] li');
  t.match(await mine.locator('[data-testid=results] li').textContent(), /^Round 1: place [123] of 3, score/, "the player's page lists their result");
  const table = console.locator(`[data-testid=rounds] li[data-game-id="${gameId}"]`);
  await table.locator('[data-action=correct]').click();
  // Everyone shares first place.
  for (const seat of [0, 1, 2]) await table.locator(`input[data-seat="${seat}"]`).fill('1');
  await table.locator('[data-testid=reason]').fill('A shared win: <b>agreed</b>');
  await table.locator('[data-action=end-table]').click();
  await console.waitForSelector('[data-testid=said]:has-text("Result corrected")');
  await publicPage.waitForSelector(`li[data-game-id="${gameId}"]:has-text("adjudicated: A shared win: <b>agreed</b>")`);
  t.pass('the correction and its reason (as text) reach the public page live');
  await mine.waitForSelector('[data-testid=results] li:has-text("place 1 of 3")');
  t.pass("and the player's page shows the corrected place");

  const phonePublic = await chromium.newPage(phone);
  watch(phonePublic);
  // A browser asking for the API's address is sent to the page; the API keeps JSON.
  await phonePublic.goto(`${served.url}/tournaments/${id}`);
  t.equal(new URL(phonePublic.url()).pathname, `/t/${id}`, 'a browser asking for /tournaments/{id} gets the page');
  await phonePublic.waitForSelector('[data-testid=blocked]');
  await phonePublic.waitForSelector('[data-testid=standings] [data-player]');
  await accessibleAndFits(t, phonePublic, 'the public page on a phone');
  // The standings fit the phone whole: no column hidden at the right of its box.
  const standings = await phonePublic.locator('[data-testid=standings]').evaluate((table) => ({ table: Math.ceil(table.getBoundingClientRect().right), box: Math.floor(table.parentElement!.getBoundingClientRect().right) }));
  t.ok(standings.table <= standings.box, `the standings on a phone end at ${standings.table} px, inside their box (${standings.box} px)`);
  // ...without breaking its headings into letters: every heading keeps to one line.
  const headings = await phonePublic.locator('[data-testid=standings] thead th').evaluateAll((cells) =>
    cells.map((th) => {
      const style = getComputedStyle(th);
      const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2;
      const text = th.getBoundingClientRect().height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom) - parseFloat(style.borderBottomWidth);
      return { text: th.textContent, lines: Math.round(text / line) };
    }),
  );
  t.same(headings.filter((h) => h.lines > 1), [], 'no heading of the standings wraps on a phone');
  t.match(await phonePublic.locator('.scroll-x .legend').innerText(), /Pts points/, 'a legend under the table says what the short headings stand for');
  await screenshot(phonePublic, 'tournament-public-phone');
  for (const accept of ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'text/html']) {
    const redirected = await fetch(`${served.url}/tournaments/${id}`, { headers: { accept }, redirect: 'manual' });
    t.same([redirected.status, redirected.headers.get('location'), redirected.headers.get('vary')], [303, `/t/${id}`, 'accept'], `Accept: ${accept} is sent to the page`);
  }
  for (const accept of ['*/*', 'application/json', 'application/json, text/html', 'text/html;q=0.5, application/json']) {
    const answered = await fetch(`${served.url}/tournaments/${id}`, { headers: { accept } });
    t.equal(answered.status, 200, `Accept: ${accept} gets JSON`);
    await answered.body?.cancel();
  }
  const json = await fetch(`${served.url}/tournaments/${id}`);
  t.equal(json.status, 200);
  t.equal(json.headers.get('link'), `</t/${id}>; rel="alternate"; type="text/html"`, 'the API links to its page');
  t.equal((await json.json()).id, id, 'and answers JSON to an API client');

  const phoneConsole = await chromium.newPage(phone);
  watch(phoneConsole);
  await phoneConsole.goto(`${served.url}/organize`);
  await phoneConsole.fill('[data-testid=key]', key);
  await phoneConsole.click('[data-testid=use-key]');
  await phoneConsole.waitForSelector(`[data-testid=tournaments] a[href="/organize/${id}"]`);
  await phoneConsole.goto(`${served.url}/organize/${id}`);
  await phoneConsole.waitForSelector('[data-testid=blocked]');
  await accessibleAndFits(t, phoneConsole, 'the console on a phone');
  // An approved entry removed from the console: its answer says what comes next.
  await console.locator('[data-testid=entries] tr', { hasText: 'Bruno' }).locator('[data-action=remove]').click();
  await console.waitForSelector('[data-testid=said]:has-text("Bruno removed")');
  t.match(await console.locator('[data-testid=said]').textContent(), /Bruno removed\. Round 2 could not be paired/, 'a removal says what it causes');
  await console.waitForSelector('[data-testid=entries] tr[data-status=removed]:has-text("Bruno")');
  t.pass('the entry shows as removed');

  // The join page and the player's page on a desktop too.
  const wide = await chromium.newPage(desktop);
  watch(wide);
  await wide.goto(`${served.url}/`);
  await wide.waitForSelector(`[data-game-id="${gameId}"] a[href="/t/${id}"]`);
  t.pass("the lobby links a tournament's table to the tournament's page");
  await wide.goto(link!);
  await wide.waitForSelector('[data-testid=join]');
  await accessibleAndFits(t, wide, 'the join page on a desktop');
  await wide.goto(`${served.url}/t/${id}/me#token=${encodeURIComponent(others[0]!.token)}`);
  await wide.waitForSelector('[data-testid=results] li');
  t.equal(new URL(wide.url()).hash, '', 'the token leaves the address');
  await accessibleAndFits(t, wide, "the player's page on a desktop");
  for (const other of others) await other.page.close();
  t.same(dialogs, [], 'no script of a name ran');
  t.same(errors, [], 'no script errors');
});
