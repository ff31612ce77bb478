// What a viewer may see. Chips lie face down: a seat knows the kinds of its own
// chips, everyone else only how many each player has; the supply shows only its size.
import type { Seat, Viewer } from '../contract.ts';
import { edition, type Edition } from './edition.ts';
import type { Event } from './events.ts';
import type { State, Tableau } from './state.ts';
import { stealingAllowed, supplySize } from './state.ts';
import type { BonusKind, ChipKind, Colour, PerChip, PerColour, Phase } from './vocabulary.ts';

export interface View {
  readonly seats: number;
  readonly phase: Phase;
  readonly active: Seat;
  readonly dice: PerColour<number>;
  readonly chipSupply: { readonly count: number; readonly kinds: PerChip<number> | null };
  readonly tableaus: readonly Tableau[];
  /** kinds is null for chips the viewer may not see. */
  readonly hands: readonly { readonly count: number; readonly kinds: readonly ChipKind[] | null }[];
  readonly rolled: { readonly colour: Colour; readonly values: readonly number[] } | null;
  readonly bonuses: readonly BonusKind[];
  readonly extraTurns: number;
  readonly stealingAllowed: boolean;
  /** Why stealing is not allowed yet: the seats still to take their first turn (the
   * first round); empty once stealing is allowed. */
  readonly firstTurnPending: readonly Seat[];
  /** The tableau's layout (rows, white line, bonus spaces), as in the catalog's edition. */
  readonly tableauLayout: Edition['tableau'];
  readonly winner: Seat | null;
}

const sees = (viewer: Viewer, ...owners: Seat[]): boolean =>
  viewer.kind === 'all' || (viewer.kind === 'seat' && owners.includes(viewer.seat));

export function view(state: State, viewer: Viewer): View {
  return {
    seats: state.seats,
    phase: state.phase,
    active: state.active,
    dice: state.dice,
    chipSupply: {
      count: supplySize(state.chips),
      kinds: viewer.kind === 'all' ? state.chips : null,
    },
    tableaus: state.tableaus,
    hands: state.hands.map((hand, seat) => ({
      count: hand.length,
      kinds: sees(viewer, seat) ? hand : null,
    })),
    rolled: state.rolled,
    bonuses: state.bonuses,
    extraTurns: state.extraTurns,
    stealingAllowed: stealingAllowed(state),
    firstTurnPending: state.hadTurn.flatMap((had, seat) => (had ? [] : [seat])),
    tableauLayout: edition.tableau,
    winner: state.winner,
  };
}

/** A stolen chip is known to the thief (who looks at it) and the victim (who misses it). */
export function redact(event: Event, viewer: Viewer): Event {
  switch (event.type) {
    case 'ChipsTaken':
      return sees(viewer, event.seat) ? event : { ...event, chips: null };
    case 'ChipStolen':
      return sees(viewer, event.thief, event.victim) ? event : { ...event, chip: null };
    default:
      return event;
  }
}
