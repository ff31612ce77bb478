// Which refused commands belong in the race log: a race command of the game (see
// src/domain/races.ts) that a seat sent, itself, through the referee or as its bot.
// Asked only of refusals, so an accepted command pays nothing for it.
import type { Command } from '../domain/contract.ts';
import { isRaceCommand } from '../domain/races.ts';
import { actorLabel, resolvePrincipal, type Principal } from '../access/principal.ts';
import type { LoadedGame } from '../state/latest-states.ts';

/** What of a command's input tells who sent it (CommandInput's fields). */
interface Sent {
  readonly caller: { readonly kind: 'system' } | { readonly kind: 'bot'; readonly seat: number } | { readonly kind: 'token'; readonly token: string | undefined };
  readonly command: unknown;
  readonly seat?: number;
  readonly asChance?: boolean;
}

/** The seat, sender and command of a refused race command; null for any other. */
export function raceCommandOf(loaded: LoadedGame, input: Sent): { seat: number; actor: string; command: Command } | null {
  if (input.asChance === true) return null;
  const parsed = loaded.game.commandSchema.safeParse(input.command);
  if (!parsed.success || !isRaceCommand(loaded.game.type, parsed.data as Command)) return null;
  const { caller } = input;
  if (caller.kind === 'system') return null;
  if (caller.kind === 'bot') return { seat: caller.seat, actor: `bot:seat:${caller.seat}`, command: parsed.data as Command };
  let principal: Principal;
  try {
    principal = resolvePrincipal(loaded.record, caller.token);
  } catch {
    return null;
  }
  const seat = principal.kind === 'seat' ? principal.seat : principal.kind === 'referee' ? input.seat : undefined;
  if (seat === undefined || !Number.isInteger(seat) || seat < 0 || seat >= loaded.record.seatCount) return null;
  return { seat, actor: actorLabel(principal, principal.kind === 'referee' ? seat : null), command: parsed.data as Command };
}
