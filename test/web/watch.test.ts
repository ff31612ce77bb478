// Watching live in a real browser: for each game the watch page is opened on a game
// whose seats are bots and one client of the test's own; the table follows the
// WebSocket to the end and is then drawn as the final view says. Once the sockets are
// cut mid-game: the page shows it reconnecting, reopens with after=N and catches up.
// Everything the page received while the game ran is searched for hidden information.
import t from 'tap';
import { botTables, browser, gameTypes, playSeat, screenshot, serve } from './browser.ts';
import { secrets } from './hidden.ts';
import { drawn, expected } from './tables.ts';

t.setTimeout(600_000);

t.test('a spectator watches every game live to its end', async (t) => {
  const served = await serve(t);
  const chromium = await browser(t);
  for (const type of gameTypes) {
    await t.test(type, async (t) => {
      const { seats, options } = botTables[type];
      const created = await served.api('POST', '/games', {
        type,
        seed: `watch-${type}`,
        // Bots race through a short Porca Miseria game: with more actions it is still
        // running when the sockets are cut, so there is something to reconnect to.
        options: type === 'porca-miseria' ? { ...options, maxActions: 30 } : options,
        seats: Array.from({ length: seats }, (_, i) => (i === 0 ? { open: true } : { name: `Bot ${i}`, bot: 'greedy' })),
      });
      const id: string = created.game.id;
      const page = await chromium.newPage({ viewport: { width: 1100, height: 900 } });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      const received: { source: string; message: any }[] = [];
      const sockets: string[] = [];
      page.on('websocket', (socket) => {
        sockets.push(socket.url());
        socket.on('framereceived', (frame) => received.push({ source: `frame ${socket.url()}`, message: JSON.parse(String(frame.payload)) }));
      });
      page.on('response', async (response) => {
        if (response.headers()['content-type']?.includes('json')) received.push({ source: response.url(), message: await response.json().catch(() => null) });
      });
      const started = performance.now();
      await page.goto(`${served.url}/watch/${id}`);
      await page.waitForSelector('[data-testid=table] svg');
      t.comment(`${type}: watch page drawn in ${Math.round(performance.now() - started)} ms`);
      t.equal(await page.locator('[data-testid=live-state]').textContent(), 'live', 'live once the first update is drawn');

      const joined = await served.api('POST', `/games/${id}/join`, { name: 'Thea' });
      const playing = playSeat(served, id, joined.token, 7);
      // Cut the connection once the game has moved on a little.
      await page.waitForFunction(() => Number(document.querySelector('[data-testid=version]')?.textContent?.replace(/\D/g, '')) > 8);
      served.dropSockets();
      await page.waitForFunction(() => document.querySelector('[data-testid=live-state]')?.textContent !== 'live', undefined, { timeout: 5000 });
      await playing;
      await page.waitForFunction(() => document.querySelector('[data-testid=live-state]')?.textContent === 'game over', undefined, { timeout: 30_000 });

      const final = await served.api('GET', `/games/${id}`);
      t.same(await drawn(page, type), expected(type, final.view), 'the table ends as the final view says');
      t.equal(await page.locator('.moves li').count(), final.version, 'every event in the move list, none twice after the reconnect');
      t.ok(sockets.length >= 2, 'the page reconnected');
      t.ok(sockets.slice(1).every((url) => Number(new URL(url).searchParams.get('after')) > 0), `reconnects ask for what came after the version drawn: ${sockets.slice(1).join(', ')}`);
      await screenshot(page, `watch-${type}`);

      const running = received.filter(({ message }) => message !== null && message.status !== 'finished' && message.game?.status !== 'finished');
      const leaks = running.flatMap(({ source, message }) => secrets(type, message, null).map((s) => `${s} in ${source}`));
      t.same(leaks, [], `no hidden information in ${running.length} messages received while the game ran`);
      t.same(errors, [], 'no script errors');
      await page.close();
    });
  }
});

t.test('the watch page keeps up with a Porca Miseria race', async (t) => {
  const served = await serve(t);
  const chromium = await browser(t);
  const page = await chromium.newPage({ viewport: { width: 1100, height: 900 } });
  // Each update's arrival, when the page first showed its version (watched until it
  // does: a frame late under load is reported below, not a failure), and whether it did
  // by the next frame.
  await page.addInitScript(() => {
    const w = window as unknown as { __updates: { version: number; arrived: number; drawn: number | null; byNextFrame: boolean | null }[] };
    w.__updates = [];
    const shown = () => Number(document.querySelector('[data-testid=version]')?.textContent?.replace(/\D/g, '') ?? -1);
    const Native = window.WebSocket;
    window.WebSocket = class extends Native {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        this.addEventListener('message', (event) => {
          const data = JSON.parse(String(event.data));
          if (data.type !== 'update') return;
          const entry = { version: data.version as number, arrived: performance.now(), drawn: null as number | null, byNextFrame: null as boolean | null };
          w.__updates.push(entry);
          const drawn = () => {
            entry.drawn = performance.now();
            observer.disconnect();
          };
          const observer = new MutationObserver(() => {
            if (shown() >= entry.version && entry.drawn === null) drawn();
          });
          observer.observe(document.body, { subtree: true, childList: true, characterData: true });
          requestAnimationFrame(() => {
            entry.byNextFrame = shown() >= entry.version;
            if (entry.drawn === null && entry.byNextFrame) drawn();
          });
        });
      }
    };
  });
  const seats = 6;
  const created = await served.api('POST', '/games', {
    type: 'porca-miseria',
    seed: 'race',
    options: { revealMs: 500, windowMs: 500, maxActions: 15 },
    seats: [{ open: true }, ...Array.from({ length: seats - 1 }, (_, i) => ({ name: `Bot ${i + 1}`, bot: i % 2 ? 'random' : 'greedy' }))],
  });
  const id: string = created.game.id;
  await page.goto(`${served.url}/watch/${id}`);
  await page.waitForSelector('[data-testid=table] svg');
  await served.api('POST', `/games/${id}/join`, { name: 'Thea' });
  await page.waitForFunction(() => document.querySelector('[data-testid=live-state]')?.textContent === 'game over', undefined, { timeout: 120_000 });
  const updates: { version: number; arrived: number; drawn: number | null; byNextFrame: boolean | null }[] = await page.evaluate(() => (window as any).__updates);
  const final = await served.api('GET', `/games/${id}`);
  t.equal(updates[updates.length - 1]!.version, final.version, 'the last update is the final version');
  t.ok(updates.every((u) => u.drawn !== null), `every one of ${updates.length} updates was drawn`);
  const delays = updates.map((u) => (u.drawn ?? Infinity) - u.arrived).sort((a, b) => a - b);
  const late = updates.filter((u) => u.byNextFrame === false).length;
  const ms = (x: number) => Math.round(x * 10) / 10;
  // Reported, not asserted: the machine is shared with other builds.
  t.comment(JSON.stringify({ race: { seats, updates: updates.length, versions: final.version, drawnMs: { median: ms(delays[Math.floor(delays.length / 2)]!), p95: ms(delays[Math.floor(delays.length * 0.95)]!), max: ms(delays[delays.length - 1]!) }, notDrawnByNextFrame: late } }));
});

t.test('a reconnect that missed nothing says caught up', async (t) => {
  const served = await serve(t);
  const chromium = await browser(t);
  // Waiting for its last seat, the game does not move while the socket is cut.
  const created = await served.api('POST', '/games', { type: 'mistkaefer', seats: [{ name: 'Thea' }, { open: true }] });
  const page = await chromium.newPage();
  await page.goto(`${served.url}/watch/${created.game.id}`);
  const state = page.locator('[data-testid=live-state]');
  await page.waitForFunction(() => document.querySelector('[data-testid=live-state]')?.textContent === 'live');
  served.dropSockets();
  await page.waitForFunction(() => document.querySelector('[data-testid=live-state]')?.textContent === 'caught up', undefined, { timeout: 10_000 }).catch(() => {});
  t.equal(await state.textContent(), 'caught up', 'the socket is back and nothing was missed');
  t.equal(await page.locator('[data-testid=version]').textContent(), ` · version ${created.game.version}`, 'the table is where it was');
});
