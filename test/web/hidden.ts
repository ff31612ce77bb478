// What a spectator (or a seat, for others' secrets) must never receive while a game
// runs, looked for in everything the page got: HTTP bodies and WebSocket frames.
import type { GameType } from './browser.ts';

/** Paths of secrets in one message (an HTTP body or a frame); `seat` is the viewer's. */
export function secrets(type: GameType, message: any, seat: number | null): string[] {
  const found: string[] = [];
  const views = [message?.view].filter((v) => v != null);
  const events = [...(message?.events ?? []), ...(message?.steps ?? [])].map((e: any) => e.event ?? e);
  for (const view of views) {
    if (type === 'fackel-und-keule') {
      if (view.all != null) found.push('view.all');
      if (view.you != null && view.you.seat !== seat) found.push(`view.you of seat ${view.you.seat}`);
    }
    if (type === 'mistkaefer') {
      if (view.chipSupply?.kinds != null) found.push('view.chipSupply.kinds');
      view.hands?.forEach((h: any, s: number) => h.kinds != null && s !== seat && found.push(`view.hands[${s}].kinds`));
    }
    if (type === 'porca-miseria' && view.stack != null) found.push('view.stack');
  }
  for (const e of events) {
    if (type === 'fackel-und-keule' && ['CardsDrawn', 'CardsChosen', 'SurplusDiscarded'].includes(e.type) && e.cards != null && e.seat !== seat) found.push(`${e.type} of seat ${e.seat}`);
    if (type === 'mistkaefer' && e.type === 'ChipsTaken' && e.chips != null && e.seat !== seat) found.push(`ChipsTaken of seat ${e.seat}`);
    if (type === 'mistkaefer' && e.type === 'ChipStolen' && e.chip != null && e.thief !== seat && e.victim !== seat) found.push('ChipStolen chip');
  }
  return found;
}
