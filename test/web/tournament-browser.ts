// What the tournament pages' browser tests share: an organizer's key made with the
// test admin key (what an operator hands an organizer), the two screen sizes, an axe-core
// check of a page and a check that a page fits its screen's width.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Test } from 'tap';
import type { Page } from 'playwright-core';
import { testAdminKey } from '../helpers/app.ts';
import type { Served } from './browser.ts';

export const desktop = { viewport: { width: 1440, height: 900 } };
export const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
export const hostile = `<img src=x onerror=alert(1)>"'&`;

/** A new organizer's key with every scope. */
export async function organizerKey(served: Served, name = 'Spielekreis Nord'): Promise<string> {
  const created = await served.api('POST', '/organizers', { name, key: { name: 'console', scopes: ['games:create', 'tournaments:run', 'results:read', 'keys:manage'] } }, testAdminKey);
  return created.key;
}

let axeSource: Promise<string> | null = null;

/** axe-core's violations on the page as it is now (WCAG 2.1 A and AA and best
 * practices). The engine is evaluated through the debugging protocol, which the page's
 * content security policy does not govern (an inline script would be refused). */
export async function axeViolations(page: Page): Promise<string[]> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(await axeSource);
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  return violations;
}

/** Asserts axe finds nothing and the page is no wider than its screen. */
export async function accessibleAndFits(t: Test, page: Page, what: string): Promise<void> {
  t.same(await axeViolations(page), [], `${what}: axe finds no violation`);
  // A phone widens its layout to the page's content, so the page is measured against
  // the screen, not the window.
  const screen = page.viewportSize()!.width;
  const scrollWidth = await page.evaluate(() => document.scrollingElement!.scrollWidth);
  t.ok(scrollWidth <= screen, `${what}: the page is ${scrollWidth} px wide on a ${screen} px screen`);
  // Nor is anything cut off at the screen's right edge: whatever reaches past it sits in
  // a box of its own that scrolls sideways and itself ends within the screen.
  const cut = await page.evaluate((screen) => {
    const scrolls = (e: Element) => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX) && e.getBoundingClientRect().right <= screen + 0.5;
    return [...document.body.querySelectorAll('*')]
      .filter((e) => e.getBoundingClientRect().width > 0 && e.getBoundingClientRect().right > screen + 0.5)
      .filter((e) => { for (let a = e.parentElement; a; a = a.parentElement) if (scrolls(a)) return false; return true; })
      .map((e) => `${e.tagName.toLowerCase()}${e.getAttribute('data-testid') ? `[data-testid=${e.getAttribute('data-testid')}]` : ''} ends at ${Math.round(e.getBoundingClientRect().right)}`);
  }, screen);
  t.same(cut, [], `${what}: nothing reaches past the screen's right edge outside a box that scrolls`);
}

/** Fills the console's creation form for a Pechvogel Swiss at tables of exactly 3, no
 * byes, whose silent seats a bot plays on after `noShowSeconds` (the players stay in),
 * as an organizer would; the caller submits it. */
export async function fillSwissForm(page: Page, name: string, rounds: number, noShowSeconds: number): Promise<void> {
  await page.fill('[data-testid=t-name]', name);
  await page.selectOption('[data-testid=t-game]', 'pechvogel');
  await page.fill('#t-rounds', String(rounds));
  await page.fill('#t-min', '3');
  await page.fill('#t-max', '3');
  await page.uncheck('[data-testid=t-byes]');
  await page.fill('[data-testid=t-no-show]', String(noShowSeconds));
  await page.selectOption('[data-testid=t-no-show-action]', 'bot');
  await page.fill('#t-absent-after', '0');
  await page.fill('#option-reactionSeconds', '1');
}
