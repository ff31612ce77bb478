// One seat's panel, the same on every table: its frame (outlined while the seat is the
// one to act), its name (marked when it is the viewer's own), an optional line of notes
// under the name, and the game's pieces inside. The tests find each seat's pieces by
// the panel's data-area="player" and data-seat.
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';

export interface SeatPanelProps {
  readonly seat: number;
  /** Top of the panel on the table. */
  readonly y: number;
  readonly width: number;
  readonly height: number;
  readonly name: string | undefined;
  /** How wide the name may run before the panel's pieces begin: a longer name is cut
   * with an ellipsis, whole in its tooltip and in the table's description. */
  readonly nameWidth: number;
  readonly you: boolean;
  readonly active: boolean;
  readonly note?: string;
  /** Extra data- attributes the tests read (e.g. data-winnings). */
  readonly data?: Readonly<Record<`data-${string}`, string | number>>;
  readonly children?: ComponentChildren;
}

let measuring: CanvasRenderingContext2D | null = null;

/** The longest start of `name` that fits `width` in the font `text` is drawn with, cut
 * with an ellipsis; `suffix` is always kept. Names are anyone's text, up to 64
 * characters: an SVG text never wraps, so an uncut one ran under the seat's cards. */
function fitted(text: SVGTextElement, name: string, suffix: string, width: number): string {
  measuring ??= document.createElement('canvas').getContext('2d');
  if (measuring === null) return name;
  const style = getComputedStyle(text);
  measuring.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const fits = (s: string) => measuring!.measureText(s + suffix).width <= width;
  if (fits(name)) return name;
  let keep = 0;
  for (let n = name.length - 1; n > 0; n--) {
    if (fits(`${name.slice(0, n)}…`)) {
      keep = n;
      break;
    }
  }
  return `${name.slice(0, keep)}…`;
}

function SeatName({ name, you, width }: { name: string; you: boolean; width: number }) {
  const ref = useRef<SVGTextElement>(null);
  const suffix = you ? ' (you)' : '';
  const [shown, setShown] = useState(name);
  useLayoutEffect(() => {
    if (ref.current) setShown(fitted(ref.current, name, suffix, width));
  }, [name, suffix, width]);
  return (
    <text ref={ref} x={12} y={22} class="name" data-name={name}>
      {shown !== name ? <title>{name}</title> : null}
      {shown}{suffix}
    </text>
  );
}

export function SeatPanel({ seat, y, width, height, name, nameWidth, you, active, note, data, children }: SeatPanelProps) {
  return (
    <g data-seat={seat} data-area="player" {...data} transform={`translate(10 ${y})`}>
      <rect width={width} height={height} rx={8} class={active ? 'seat active' : 'seat'} />
      <SeatName name={name ?? ''} you={you} width={nameWidth} />
      {note ? <text x={12} y={42} class="label">{note}</text> : null}
      {children}
    </g>
  );
}

/** Where the i-th of equal pieces goes when they wrap after `perRow`. */
export const wrapAt = (i: number, perRow: number, dx: number, dy: number): { x: number; y: number } => ({ x: (i % perRow) * dx, y: Math.floor(i / perRow) * dy });

/** How many rows `count` pieces take when they wrap after `perRow` (at least one). */
export const rowsOf = (count: number, perRow: number): number => Math.max(1, Math.ceil(count / perRow));
