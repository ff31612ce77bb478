// What the page needs of each game: a drawing of its table from the typed view, the
// words for its events, and labels for its commands. One module per game beside this
// one; they read only the views the API serves and the edition data of GET /catalog.
import type { JSX } from 'preact';
import type { AnyEvent, Command } from '../api.ts';

export interface TableProps<V> {
  readonly view: V;
  readonly names: readonly string[];
  /** The viewer's own seat, or null for spectators and replays. */
  readonly you: number | null;
  /** The game's edition data from the catalog. */
  readonly edition: unknown;
  /** A phone-sized screen: the table is laid out about 400 units wide instead of 720,
   * its pieces wrapping onto more lines, so it scales to the screen and stays readable. */
  readonly narrow: boolean;
  /** On a seat's page while it may act: its legal commands and how to send one, so
   * pieces on the table can be played by a click or a key (the buttons stay beside). */
  readonly act?: TableActions | undefined;
}

export interface TableActions {
  readonly legal: readonly Command[];
  send(command: Command): void;
}

/** The attributes that make a drawn piece a button: focusable, Enter or Space play it. */
export const pieceButton = (label: string, send: () => void): JSX.SVGAttributes<SVGGElement> => ({
  role: 'button' as const,
  tabIndex: 0,
  'aria-label': label,
  class: 'actable',
  onClick: send,
  onKeyDown: (e: KeyboardEvent) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    e.preventDefault();
    e.stopPropagation();
    send();
  },
});

/** The table's width in SVG units, wide or narrow. */
export const tableWidth = (narrow: boolean): number => (narrow ? 400 : 720);

export interface GameUi<V = unknown> {
  Table(props: TableProps<V>): JSX.Element;
  /** The event in words, e.g. "Thea throws 7, 7, raven, 3". */
  describe(event: AnyEvent, name: (seat: number) => string, edition: unknown): string;
  /** A legal command as a button's text. */
  label(command: Command, view: V, name: (seat: number) => string, edition: unknown): string;
  /** Keyboard shortcuts for commands that race (Porca Miseria): key → command. Sent
   * as pressed, even before the page has drawn the update that allows it: in a race the
   * server's order decides, and a refusal is shown in words like any other. */
  readonly keys?: Readonly<Record<string, Command>>;
  /** The commands the table offers as pieces to click (when `act` is given). The page
   * keeps their buttons as a fallback, folded away, so they do not push the table off a
   * phone's first screen. */
  onTable?(command: Command): boolean;
  /** Where the event changed the table: a selector inside the drawing (a piece or an
   * area), or null for an event the table does not show (a deadline, a reshuffle). An
   * event with a seat and no entry here marks that seat's panel. */
  newest?(event: AnyEvent): string | null | undefined;
}

/** A seat's panel on every table (seat-panel.tsx). */
export const seatPanel = (seat: number): string => `[data-area=player][data-seat="${seat}"]`;

export const list = (items: readonly (string | number)[]): string =>
  items.length === 0 ? 'nothing' : items.length === 1 ? String(items[0]) : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
