// One seat's panel, the same on every table: its frame (outlined while the seat is the
// one to act), its name (marked when it is the viewer's own), an optional line of notes
// under the name, and the game's pieces inside. The tests find each seat's pieces by
// the panel's data-area="player" and data-seat.
import type { ComponentChildren } from 'preact';

export interface SeatPanelProps {
  readonly seat: number;
  /** Top of the panel on the table. */
  readonly y: number;
  readonly width: number;
  readonly height: number;
  readonly name: string | undefined;
  readonly you: boolean;
  readonly active: boolean;
  readonly note?: string;
  /** Extra data- attributes the tests read (e.g. data-winnings). */
  readonly data?: Readonly<Record<`data-${string}`, string | number>>;
  readonly children?: ComponentChildren;
}

export function SeatPanel({ seat, y, width, height, name, you, active, note, data, children }: SeatPanelProps) {
  return (
    <g data-seat={seat} data-area="player" {...data} transform={`translate(10 ${y})`}>
      <rect width={width} height={height} rx={8} class={active ? 'seat active' : 'seat'} />
      <text x={12} y={22} class="name">{name}{you ? ' (you)' : ''}</text>
      {note ? <text x={12} y={42} class="label">{note}</text> : null}
      {children}
    </g>
  );
}

/** Where the i-th of equal pieces goes when they wrap after `perRow`. */
export const wrapAt = (i: number, perRow: number, dx: number, dy: number): { x: number; y: number } => ({ x: (i % perRow) * dx, y: Math.floor(i / perRow) * dy });

/** How many rows `count` pieces take when they wrap after `perRow` (at least one). */
export const rowsOf = (count: number, perRow: number): number => Math.max(1, Math.ceil(count / perRow));
