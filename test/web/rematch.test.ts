// The finished game's banner on the play page (issue 26): a Rematch button that makes
// the rematch (or joins the one another person made) and goes on to play the new seat,
// which the browser remembers, and a link to the replay; axe finds nothing.
import t from 'tap';
import { browser, finished, playSeat, serve } from './browser.ts';
import { axeViolations, checkBreakdown, open, shot } from './checks.ts';

t.setTimeout(240_000);

const hostile = `<img src=x onerror=alert(1)>"'&`;

t.test('rematch from the result banner, made or joined', async (t) => {
  const served = await serve(t);
  const chromium = await browser(t);
  for (const size of ['desktop', 'phone'] as const) {
    const created = await served.api('POST', '/games', { type: 'fackel-und-keule', seats: [{ name: hostile }, { name: 'Bo' }, { name: 'Cy', bot: 'greedy' }] });
    const id = created.game.id;
    const [ana, bo] = [created.seats[0].token, created.seats[1].token];
    await Promise.all([playSeat(served, id, ana, 1), playSeat(served, id, bo, 2)]);
    await finished(served, id);

    // The first person makes the rematch from the banner.
    const { page, failed } = await open(chromium, size);
    await page.goto(`${served.url}/play/${id}#token=${ana}`);
    await page.waitForSelector('[data-testid=result]');
    const banner = page.getByRole('region', { name: 'Result' });
    t.ok(await banner.getByRole('link', { name: /replay/i }).getAttribute('href').then((h) => h === `/replay/${id}`), `${size}: the banner links the replay`);
    await checkBreakdown(t, page, size, (await served.api('GET', `/games/${id}`)).result);
    t.same(await axeViolations(page), [], `${size}: axe finds nothing on the finished play page`);
    await shot(page, `rematch-banner-${size}`);
    // The other person looks at the same finished table in their own browser meanwhile.
    const other = await open(chromium, size);
    await other.page.goto(`${served.url}/play/${id}#token=${bo}`);
    const joining = other.page.getByRole('region', { name: 'Result' }).getByRole('button', { name: /rematch/i });
    t.equal(await joining.textContent(), 'Rematch', `${size}: before anyone made it, the other person is offered to make the rematch`);
    await banner.getByRole('button', { name: /rematch/i }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/play/') && !url.pathname.endsWith(id));
    const again = (await served.api('GET', `/games/${id}`)).game.rematch.gameId;
    const url = new URL(page.url());
    t.equal(url.pathname, `/play/${again}`, `${size}: the browser plays the rematch the old game names`);
    const token = new URLSearchParams(url.hash.slice(1)).get('token')!;
    const mine = await served.api('GET', `/games/${again}`, undefined, token);
    t.equal(mine.you.seat, 0, `${size}: with the person's seat in it`);
    const seats = await page.evaluate(() => JSON.parse(localStorage.getItem('spielwerk.seats') ?? '[]'));
    t.match(seats[0], { id: again, seat: 0, token, name: hostile }, `${size}: the browser remembers the new seat`);
    await page.waitForSelector('[data-testid=table]');

    // The other person's page, never reloaded, learns that it was made, and joins it
    // with the same button.
    await other.page.waitForFunction(() => [...document.querySelectorAll('[data-testid=rematch]')].some((b) => b.textContent === 'Rematch started — join it'), undefined, { timeout: 15_000 });
    t.pass(`${size}: the others are told the rematch exists, without reloading`);
    await joining.click();
    await other.page.waitForURL((u) => u.pathname === `/play/${again}`);
    const theirs = new URLSearchParams(new URL(other.page.url()).hash.slice(1)).get('token')!;
    t.equal((await served.api('GET', `/games/${again}`, undefined, theirs)).you.seat, 1, `${size}: and take their own seat in the same rematch`);
    t.same([...failed, ...other.failed].filter((f) => !f.startsWith('409')), [], `${size}: no request failed, no script error`);
    await page.context().close();
    await other.page.context().close();
  }
});
