// "End of the Game": whoever holds 4 clover leaves or the dung balls the player count
// asks for wins at once. Mistkäfer has no points: the winner scores 1, everyone else 0.
// The breakdown turns every seat's chips face up, as players at a table do once the
// game is won (docs/games/mistkaefer.md); until then only their owners know them.
import { rankByParts, type GameResult } from '../contract.ts';
import { edition } from './edition.ts';
import type { State } from './state.ts';
import { chipKinds, type ChipKind } from './vocabulary.ts';

/** Each chip face as the rulebook describes it: "one dung ball, two dung balls, or a clover leaf". */
const faces: Readonly<Record<ChipKind, string>> = {
  oneDungBall: 'chip with one dung ball',
  twoDungBalls: 'chip with two dung balls',
  cloverLeaf: 'chip with a clover leaf',
};

export function result(state: State): GameResult | null {
  if (state.winner === null) return null;
  const goal = `${edition.win.cloverLeaves} clover leaves or ${edition.win.dungBalls[String(state.seats)]} dung balls`;
  return rankByParts(
    Array.from({ length: state.seats }, (_, seat) => [
      ...chipKinds.map((kind) => ({ label: faces[kind], count: state.hands[seat]!.filter((k) => k === kind).length, points: 0 })),
      ...(seat === state.winner ? [{ label: `win: ${goal}`, points: 1 }] : []),
    ]),
  );
}
