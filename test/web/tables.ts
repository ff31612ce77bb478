/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// What each game's table should show for a view, and what the page draws, as the same
// plain facts: the browser tests compare the two at every version they look at.
import type { Page } from 'playwright-core';
import type { GameType } from './browser.ts';

type Facts = Record<string, unknown>;

const byKind = (c: Record<string, number>) => ({ teeth: c.teeth ?? 0, fur: c.fur ?? 0, meat: c.meat ?? 0, skull: c.skull ?? 0 });

/** The facts the view says the table must show. */
export function expected(type: GameType, view: any): Facts {
  switch (type) {
    case 'pechvogel':
      return {
        board: (view.turn?.targetsOnBoard ?? 0) + (view.turn?.ravensOnBoard ?? 0),
        boardFrustrations: view.turn?.frustraters.length ?? 0,
        remaining: view.turn?.remaining ?? 0,
        lastThrow: (view.turn?.last?.faces ?? []).map(String),
        middle: view.middle,
        markers: view.players.map((p: any) => p.markers),
        frustrations: view.players.map((p: any) => p.frustrations),
        murphy: view.murphy,
      };
    case 'fackel-und-keule':
      return {
        // Between a round's end and the next reveal the table still shows that round's
        // animal and played cards (view.lastRound).
        animal: view.animal?.id ?? view.lastRound?.animal?.id ?? '',
        hands: view.seats.map((s: any) =>
          (view.all?.hands[s.seat] ?? (view.you?.seat === s.seat ? view.you.hand : Array(s.handSize).fill('down'))).map(String),
        ),
        played: view.seats.map((s: any) => (s.played ?? view.lastRound?.played[s.seat] ?? []).map(String)),
        chips: view.seats.map((s: any) => byKind(s.chips)),
      };
    case 'mistkaefer':
      return {
        rows: view.tableaus,
        chips: view.hands.map((h: any) => h.kinds ?? Array(h.count).fill('down')),
        supply: view.dice,
        rolled: view.rolled?.values ?? [],
        chipSupply: view.chipSupply.count,
      };
    case 'porca-miseria':
      return {
        stack: view.stackSize,
        jackpot: view.jackpot.length,
        revealed: view.card?.id ?? null,
        heldBy: view.targets.map((t: any) => t.heldBy),
        hands: view.card?.kind === 'touch' ? view.hands.map((h: any) => h.seat) : [],
        winnings: view.winnings.map((w: any) => w.length),
        lucky: view.luckyNumbers.map((l: number[]) => l.join(',')),
      };
  }
}

/** The same facts read off the drawn SVG. */
export function drawn(page: Page, type: GameType): Promise<Facts> {
  return page.evaluate((type) => {
    const all = (selector: string, root: ParentNode = document) => [...root.querySelectorAll(selector)];
    const seats = all('[data-area=player]').sort((a, b) => Number(a.getAttribute('data-seat')) - Number(b.getAttribute('data-seat')));
    const attr = (el: Element | null, name: string) => el?.getAttribute(name) ?? '';
    switch (type) {
      case 'pechvogel': {
        const murphy = seats.findIndex((s) => s.querySelector('[data-piece=murphy]') !== null);
        return {
          board: all('[data-area=board] [data-piece=die]').length,
          boardFrustrations: all('[data-area=board] [data-piece=frustration]').length,
          remaining: all('[data-area=cup] [data-piece=die]').length,
          lastThrow: all('[data-area=last-throw] [data-piece=die]').map((d) => attr(d, 'data-face')),
          middle: all('[data-where=middle]').map((m) => Number(attr(m, 'data-value'))),
          markers: seats.map((s) => all('[data-piece=marker]', s).map((m) => Number(attr(m, 'data-value')))),
          frustrations: seats.map((s) => all('[data-piece=frustration]', s).length),
          murphy: murphy < 0 ? null : murphy,
        };
      }
      case 'fackel-und-keule': {
        const cards = (selector: string) => seats.map((s) => all(`${selector} [data-piece=card]`, s).map((c) => attr(c, 'data-card') || 'down'));
        return {
          animal: attr(document.querySelector('[data-animal]'), 'data-animal'),
          hands: cards('[data-area=hand]'),
          played: cards('[data-area=played]'),
          chips: seats.map((s) => {
            const chips = all('[data-piece=chip]', s);
            const count = (kind: string) => chips.filter((c) => attr(c, 'data-kind') === kind).length;
            return { teeth: count('teeth'), fur: count('fur'), meat: count('meat'), skull: count('skull') };
          }),
        };
      }
      case 'mistkaefer': {
        const row = (s: Element, colour: string) => all(`[data-piece=die][data-colour=${colour}]`, s).map((d) => Number(attr(d, 'data-value')));
        return {
          rows: seats.map((s) => ({ green: row(s, 'green'), yellow: row(s, 'yellow'), blue: row(s, 'blue') })),
          chips: seats.map((s) => all('[data-piece=chip]', s).map((c) => attr(c, 'data-face'))),
          supply: Object.fromEntries(['green', 'yellow', 'blue'].map((c) => [c, Number(attr(document.querySelector(`[data-area=supply-${c}]`), 'data-count'))])),
          rolled: all('[data-where=rolled]').map((d) => Number(attr(d, 'data-value'))),
          chipSupply: Number(attr(document.querySelector('[data-area=chip-supply]'), 'data-count')),
        };
      }
      case 'porca-miseria': {
        const revealed = document.querySelector('[data-piece=revealed]');
        return {
          stack: Number(attr(document.querySelector('[data-area=stack]'), 'data-count')),
          jackpot: Number(attr(document.querySelector('[data-area=jackpot]'), 'data-count')),
          revealed: revealed === null ? null : attr(revealed, 'data-card'),
          heldBy: all('[data-area=target]').map((t) => (attr(t, 'data-held-by') === '' ? null : Number(attr(t, 'data-held-by')))),
          hands: all('[data-piece=hand]').map((h) => Number(attr(h, 'data-seat'))),
          winnings: seats.map((s) => Number(attr(s, 'data-winnings'))),
          lucky: seats.map((s) => attr(s.querySelector('[data-lucky]'), 'data-lucky')),
        };
      }
    }
  }, type);
}
