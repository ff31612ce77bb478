// Checks every page gets: axe-core's accessibility rules, and the contrast of the text
// drawn inside a table, which axe does not look into (SVG text over SVG shapes).
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Test } from 'tap';
import type { Browser, Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's violations on the page as it is now: "rule: target" per node. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the debugging protocol, which the page's security policy does not govern.
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const run = (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const { violations } = await run.run();
    return violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
  });
}

/** Every text drawn in the table whose contrast with what is drawn under it is below
 * `min` (WCAG's ratio), as "text (ratio)". The colour under a text is the fill of the
 * topmost shape under its centre, each blended by its opacity (and its groups') over
 * the shapes below it. */
export function lowContrast(page: Page, min = 4.5): Promise<string[]> {
  return page.evaluate((min) => {
    const rgb = (css: string): [number, number, number] => {
      const m = css.match(/[\d.]+/g)!.map(Number);
      return [m[0]!, m[1]!, m[2]!];
    };
    const opacity = (el: Element): number => {
      let o = 1;
      for (let e: Element | null = el; e && e.tagName !== 'svg'; e = e.parentElement) o *= Number(getComputedStyle(e).opacity);
      return o;
    };
    const blend = (top: number[], a: number, under: number[]) => top.map((c, i) => c * a + under[i]! * (1 - a));
    const lum = (c: number[]) => {
      const [r, g, b] = c.map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const bad: string[] = [];
    for (const text of document.querySelectorAll<SVGTextElement>('[data-testid=table] svg text')) {
      if (!text.textContent?.trim()) continue;
      // Only what is on the screen can be looked under.
      text.scrollIntoView({ block: 'center', inline: 'center' });
      const box = text.getBoundingClientRect();
      if (box.width === 0) continue;
      const shapes = document
        .elementsFromPoint(box.x + box.width / 2, box.y + box.height / 2)
        .filter((e) => e instanceof SVGGeometryElement && e.closest('[data-testid=table]') && getComputedStyle(e).fill.startsWith('rgb'));
      // From the bottom shape (the felt) up.
      let under = [255, 255, 255];
      for (const shape of shapes.reverse()) {
        const fill = getComputedStyle(shape).fill;
        const alpha = fill.startsWith('rgba') ? Number(fill.match(/[\d.]+/g)![3]) : 1;
        under = blend(rgb(fill), alpha * Number(getComputedStyle(shape).fillOpacity) * opacity(shape), under);
      }
      const colour = blend(rgb(getComputedStyle(text).fill), opacity(text), under);
      const [a, b] = [lum(colour), lum(under)].sort((x, y) => y - x);
      const ratio = (a! + 0.05) / (b! + 0.05);
      if (ratio < min) bad.push(`${text.textContent.trim()} (${text.getAttribute('class')} on ${shapes.map((e) => `${e.tagName}.${e.getAttribute('class')}`).join(' < ')}: ${ratio.toFixed(2)})`);
    }
    return bad;
  }, min);
}

export const sizes = {
  desktop: { viewport: { width: 1440, height: 900 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
} as const;
/** A full-page screenshot in /tmp/shots/ (outside the repository). */
export const shot = (page: Page, name: string) => page.screenshot({ path: `/tmp/shots/${name}.png`, fullPage: true });

/** A page at the size, with the clipboard allowed, collecting failed requests and script errors. */
export async function open(chromium: Browser, size: keyof typeof sizes): Promise<{ page: Page; failed: string[] }> {
  const context = await chromium.newContext(sizes[size]);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  const failed: string[] = [];
  page.on('response', (r) => void (r.status() >= 400 && failed.push(`${r.status()} ${r.url()}`)));
  page.on('pageerror', (e) => failed.push(e.message));
  return { page, failed };
}

interface Part {
  readonly label: string;
  readonly count?: number;
  readonly points: number;
}

/** The result banner's scores with their breakdowns: each seat's shown parts add up to
 * the score shown, and no part runs off the screen (a phone's 390 px). Given the
 * game's result (GET /games/{id}), the shown scores and parts are its own, part by
 * part, less those of nothing (no pieces, no points) that the banner leaves out. */
export async function checkBreakdown(t: Test, page: Page, label: string, result?: { scores: number[]; breakdown: Part[][] }): Promise<void> {
  const shown = await page.locator('[data-testid=scores] > li').evaluateAll((items) =>
    items.map((li) => ({
      seat: Number(li.getAttribute('data-seat')),
      score: Number(li.querySelector('strong')?.textContent),
      parts: [...li.querySelectorAll('[data-testid=breakdown] li')].map((part) => ({
        text: part.textContent ?? '',
        points: Number(part.getAttribute('data-points')),
        right: part.getBoundingClientRect().right,
      })),
    })),
  );
  const width = await page.evaluate(() => document.documentElement.clientWidth);
  t.ok(shown.some((s) => s.parts.length > 0), `${label}: the banner breaks the scores down: ${shown.map((s) => s.parts.map((p) => p.text).join(' · ')).join(' | ')}`);
  t.same(shown.filter((s) => s.parts.reduce((sum, p) => sum + p.points, 0) !== s.score), [], `${label}: every seat's parts add up to its score`);
  t.same(shown.filter((s) => s.parts.some((p) => p.right > width)).map((s) => s.seat), [], `${label}: every part fits the screen (${width} px)`);
  if (result === undefined) return;
  t.equal(shown.length, result.scores.length, `${label}: a score for every seat`);
  for (const { seat, score, parts } of shown) {
    const expected = result.breakdown[seat]!.filter((p) => p.points !== 0 || (p.count ?? 0) > 0);
    t.equal(score, result.scores[seat], `${label}: seat ${seat}'s score is the result's`);
    t.same(parts.map((p) => p.points), expected.map((p) => p.points), `${label}: seat ${seat}'s parts are the result's`);
    t.ok(parts.every((p, i) => p.text.startsWith(`${expected[i]!.count === undefined ? '' : `${expected[i]!.count} × `}${expected[i]!.label}`)), `${label}: seat ${seat}'s parts say what they count`);
  }
}
