// A table with a server bot waits for its people (issue 26): the play and watch pages
// say whom it awaits (names escaped), and its creator, who made it in the lobby, can
// start it anyway; then the bot plays. axe finds nothing.
import t from 'tap';
import { browser, serve } from './browser.ts';
import { axeViolations, open, shot } from './checks.ts';

t.setTimeout(240_000);

const hostile = `<img src=x onerror=alert(1)>"'&`;

t.test('waiting for a person, then started anyway by the creator', async (t) => {
  const served = await serve(t);
  const chromium = await browser(t);
  for (const size of ['desktop', 'phone'] as const) {
    const { page, failed } = await open(chromium, size);
    await page.goto(`${served.url}/`);
    await page.selectOption('[data-testid=create-type]', 'fackel-und-keule');
    await page.getByLabel('Seat 1 name').fill('Ana');
    await page.getByLabel('Seat 2 name').fill(hostile);
    await page.getByLabel('Seat 2 player').selectOption('person');
    await page.click('[data-testid=create]');
    const link = page.locator('[data-testid=created] a[data-seat="0"]');
    await link.waitFor();
    const href = (await link.getAttribute('href'))!;
    const id = new URL(href).pathname.split('/')[2]!;

    // The watch page (nobody arrived yet) names both people awaited.
    await page.goto(`${served.url}/watch/${id}`);
    await page.locator('[data-testid=waiting-for]').waitFor();
    t.equal(await page.locator('[data-testid=waiting-for]').textContent(), `Waiting for Ana and ${hostile}`, `${size}: the watch page names whom the table awaits, as text`);

    // Ana opens her seat: an arrival; the table still waits for the other person.
    await page.goto(href);
    await page.waitForFunction(() => document.querySelector('[data-testid=waiting-for]')?.textContent?.startsWith('Waiting for <img') ?? false);
    t.equal(await page.locator('[data-testid=waiting-for]').textContent(), `Waiting for ${hostile}`, `${size}: Ana sees whom the table still awaits`);
    t.equal(await page.locator('img').count(), 0, `${size}: the hostile name is not markup`);
    t.notMatch((await page.locator('[data-testid=turn]').allTextContents()).join(' '), /every seat to be taken/, `${size}: nothing says a seat is still to be taken: they all are`);
    t.notOk(await page.locator('[data-testid=turn]').isVisible(), `${size}: the turn line, with nothing to say, draws no empty badge`);
    t.same(await axeViolations(page), [], `${size}: axe finds nothing on the waiting play page`);
    await shot(page, `waiting-${size}`);
    // The bot (seat 2) chooses its cards once the table has started, and only then.
    const botChose = async () => ((await served.api('GET', `/games/${id}/events?after=0&limit=1000`)).events as { event: { type: string; seat?: number } }[]).some(({ event }) => event.type === 'CardsChosen' && event.seat === 2);
    t.notOk(await botChose(), `${size}: the bot waits with the table`);
    await page.getByRole('button', { name: 'Start anyway' }).click();
    await page.locator('[data-testid=waiting]').waitFor({ state: 'detached' });
    const started = await served.api('GET', `/games/${id}`);
    t.equal(started.status, 'running', `${size}: the creator started it`);
    for (let i = 0; i < 100 && !(await botChose()); i++) await new Promise((r) => setTimeout(r, 100));
    t.ok(await botChose(), `${size}: and the bot plays`);
    t.same(failed, [], `${size}: no request failed, no script error`);
    await page.context().close();
  }
});

t.test('whom a table awaits shrinks live as people arrive, on the watch and play pages', async (t) => {
  const served = await serve(t);
  const chromium = await browser(t);
  for (const size of ['desktop', 'phone'] as const) {
    const created = await served.api('POST', '/games', { type: 'fackel-und-keule', seats: [{ name: 'Ana' }, { name: hostile }, { name: 'Cy' }, { name: 'Bot', bot: 'greedy' }] });
    const id = created.game.id;
    const [ana, other, cy] = created.seats.map((s: { token: string }) => s.token);
    const watching = await open(chromium, size);
    await watching.page.goto(`${served.url}/watch/${id}`);
    const playing = await open(chromium, size);
    await playing.page.goto(`${served.url}/play/${id}#token=${ana}`);
    const says = (page: typeof watching.page, text: string) =>
      page.waitForFunction((text) => document.querySelector('[data-testid=waiting-for]')?.textContent === text, text, { timeout: 15_000 }).then(() => true, () => false);
    t.ok(await says(watching.page, `Waiting for Ana, ${hostile} and Cy`) || (await says(watching.page, `Waiting for ${hostile} and Cy`)), `${size}: the watch page names the people awaited`);
    t.ok(await says(playing.page, `Waiting for ${hostile} and Cy`), `${size}: Ana's page names the others`);
    // The second person opens the table elsewhere (a read with the seat's token).
    await served.api('GET', `/games/${id}`, undefined, other);
    t.ok(await says(watching.page, 'Waiting for Cy'), `${size}: the watch page, never reloaded, awaits only Cy now`);
    t.ok(await says(playing.page, 'Waiting for Cy'), `${size}: so does Ana's page`);
    // The last one arrives: the table starts and nobody is awaited.
    await served.api('GET', `/games/${id}`, undefined, cy);
    for (const page of [watching.page, playing.page]) await page.locator('[data-testid=waiting]').waitFor({ state: 'detached', timeout: 15_000 });
    t.pass(`${size}: both pages stop waiting once everyone is there`);
    t.same([...watching.failed, ...playing.failed], [], `${size}: no request failed, no script error`);
    await watching.page.context().close();
    await playing.page.context().close();
  }
});
