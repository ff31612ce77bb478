// Prints what the browser downloads for the pages, compressed as it travels (gzip,
// level 9): each asset web/dist/index.html loads and the JavaScript in total, which the
// pages keep at or under 60 KB (docs/web.md). Builds the pages first when needed.
// Then the time to the first drawn table (issue 26: within 1 s on this machine): the
// server on an embedded Postgres, a game of each type with a bot, each play page opened
// in Debian's Chromium, from navigation start to the table's first drawing.
import { readFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { build, scratchDatabase, startServer } from './server-process.ts';

if (process.argv.includes('--help')) {
  console.log('usage: npm run measure:web\nPrints the gzip size of each built page asset and the JavaScript total, then the time to the first drawn table of the play page of each game.');
  process.exit(0);
}
execFileSync('node', ['scripts/build.mjs', 'web'], { stdio: 'inherit' });
// The assets the shell loads now (earlier builds' files may still lie beside them).
const shell = await readFile('web/dist/index.html', 'utf8');
const files = [...shell.matchAll(/\/assets\/([\w.-]+)/g)].map((m) => m[1]!);
let js = 0;
for (const file of files) {
  const body = await readFile(`web/dist/assets/${file}`);
  const gz = gzipSync(body, { level: 9 }).length;
  if (file.endsWith('.js')) js += gz;
  console.log(`${file}: ${(body.length / 1024).toFixed(1)} KB, ${(gz / 1024).toFixed(1)} KB gzip`);
}
console.log(`JavaScript in total: ${(js / 1024).toFixed(1)} KB gzip (limit 60 KB)`);

// Recorded in the page as the table's <svg> is first attached, on the page's clock
// (performance.now() counts from navigation start).
const FIRST_TABLE = `new MutationObserver((_, observer) => {
  if (document.querySelector('[data-testid=table] svg')) { globalThis.firstTableMs = performance.now(); observer.disconnect(); }
}).observe(document, { childList: true, subtree: true });`;

const database = await scratchDatabase(undefined);
build();
const server = await startServer(database.url);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
try {
  const seats: Record<string, number> = { pechvogel: 2, 'fackel-und-keule': 3, mistkaefer: 2, 'porca-miseria': 3 };
  for (const [type, count] of Object.entries(seats)) {
    const response = await fetch(`${server.base}/games`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type, botThinkMs: 0, seats: Array.from({ length: count }, (_, i) => (i === 0 ? { name: 'Ana' } : { name: `Bot ${i}`, bot: 'greedy' })) }),
    });
    const created = (await response.json()) as { game: { id: string }; seats: { token: string | null }[] };
    // Twice: a first visit (nothing cached) and a second one, as a returning person.
    const context = await browser.newContext();
    await context.addInitScript(FIRST_TABLE);
    const page = await context.newPage();
    const times: number[] = [];
    for (let visit = 0; visit < 2; visit++) {
      await page.goto(`${server.base}/play/${created.game.id}#token=${created.seats[0]!.token}`);
      await page.waitForFunction(() => (globalThis as { firstTableMs?: number }).firstTableMs !== undefined);
      times.push(Math.round(await page.evaluate(() => (globalThis as unknown as { firstTableMs: number }).firstTableMs)));
      if (visit === 0) await page.goto('about:blank');
    }
    console.log(`${type}: first table drawn ${times[0]} ms after navigation start (again: ${times[1]} ms; aim 1000 ms)`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
  await database.drop();
}
