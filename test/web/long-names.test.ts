// A seat's name is anyone's text of up to 64 characters, and an SVG text never wraps:
// on every table, at both sizes, a long name is cut with an ellipsis where the seat's
// pieces begin (whole in its tooltip and in the table's description), and nothing
// drawn in the panel lies under it. Outside the table it breaks anywhere rather than
// push the move list or the page sideways.
import t from 'tap';
import { botTables, browser, finished, gameTypes, serve } from './browser.ts';
import { open, shot } from './checks.ts';

t.setTimeout(180_000);

// Wide letters after the hostile markup: 64 characters, the most a name may have.
const long = '<img src=x onerror=alert(1)>"\'&'.padEnd(64, 'W');

t.test('long names are cut where the pieces begin, on every table', async (t) => {
  const served = await serve(t);
  const chromium = await browser(t);
  const ids = new Map<string, string>();
  for (const type of gameTypes) {
    const { seats, options } = botTables[type];
    const created = await served.api('POST', '/games', { type, options, seats: Array.from({ length: seats }, (_, i) => ({ name: i === 0 ? long : `Bot ${i}`, bot: 'greedy' })) });
    ids.set(type, created.game.id);
  }
  for (const size of ['desktop', 'phone'] as const) {
    const { page, failed } = await open(chromium, size);
    for (const type of gameTypes) {
      const id = ids.get(type)!;
      await finished(served, id);
      await page.goto(`${served.url}/watch/${id}`);
      await page.waitForSelector('[data-testid=result]');
      const panel = await page.locator('[data-area=player][data-seat="0"]').evaluate((g) => {
        const name = g.querySelector('text.name')!;
        const box = name.getBoundingClientRect();
        const frame = g.querySelector('rect.seat')!.getBoundingClientRect();
        const under = [...g.querySelectorAll('rect, circle, text, path, polygon, line')]
          .filter((e) => e !== name && !e.matches('rect.seat') && !name.contains(e))
          .filter((e) => {
            const r = e.getBoundingClientRect();
            return r.width > 0 && r.left < box.right && r.right > box.left && r.top < box.bottom && r.bottom > box.top;
          })
          .map((e) => `${e.tagName}.${e.getAttribute('class') ?? ''} "${e.textContent?.slice(0, 20) ?? ''}"`);
        return { shown: name.textContent, title: name.querySelector('title')?.textContent ?? null, right: box.right, frameRight: frame.right, under };
      });
      t.same(panel.under, [], `${size}, ${type}: nothing in the panel lies under the name "${panel.shown}"`);
      t.ok(panel.right <= panel.frameRight, `${size}, ${type}: the name ends inside its panel (${Math.round(panel.right)} ≤ ${Math.round(panel.frameRight)})`);
      t.match(panel.shown, /…$/, `${size}, ${type}: the cut name ends with an ellipsis`);
      t.equal(panel.title, long, `${size}, ${type}: its tooltip has the whole name`);
      t.ok((await page.locator('[data-testid=table] svg desc').textContent())?.includes(long), `${size}, ${type}: the table's description names the seat in full`);
      const wide = await page.evaluate(() => ({ page: document.documentElement.scrollWidth - innerWidth, moves: [...document.querySelectorAll('[data-testid=moves]')].map((ol) => ol.scrollWidth - ol.clientWidth) }));
      t.same(wide, { page: 0, moves: wide.moves.map(() => 0) }, `${size}, ${type}: neither the page nor the move list scrolls sideways for the name`);
      if (type === 'fackel-und-keule') await shot(page, `long-name-${type}-${size}`);
    }
    t.same(failed, [], `${size}: no failed request, no script error`);
    await page.context().close();
  }
});
