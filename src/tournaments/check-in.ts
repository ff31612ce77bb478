// Check-in: the organizer opens a window before round 1; players check in with their
// tournament token (or the organizer checks them in at the desk). Round 1 pairs only
// those who did (bots need not): the others are marked absent (`PlayerAbsent`,
// "not-checked-in") and told so by GET /tournaments/me. Absent players, for not
// checking in or for a no-show, come back by checking in: paired from the next round.
import { ServiceError, serviceCodes } from '../errors.ts';
import type { Player, TournamentEvent, TournamentState } from './log.ts';
import { outlook } from './rounds.ts';
import { playerOf } from './tables.ts';
import type { Decision, OrganizerId, Tournaments } from './tournaments.ts';

export class CheckIns {
  constructor(private readonly tournaments: Tournaments) {}

  open(organizerId: OrganizerId, id: string, closesAt: string | null, idempotencyKey?: string) {
    return this.tournaments.run(id, organizerId, { openCheckIn: closesAt }, idempotencyKey, (state) => {
      if (state.status === 'finished') throw new ServiceError(serviceCodes.tournamentFinished, 'the tournament is over');
      if (state.rounds.length > 0) throw new ServiceError(serviceCodes.checkInClosed, 'check-in comes before round 1, which was paired already');
      return { events: [{ type: 'CheckInOpened', closesAt }], answer: { checkIn: { open: true, closesAt }, outlook: outlook({ ...state, checkIn: { open: true, closesAt } }) } };
    });
  }

  close(organizerId: OrganizerId, id: string, idempotencyKey?: string) {
    return this.tournaments.run(id, organizerId, { closeCheckIn: true }, idempotencyKey, (state) => ({
      events: state.checkIn?.open === true ? [{ type: 'CheckInClosed' }] : [],
      answer: { checkIn: state.checkIn === null ? null : { ...state.checkIn, open: false } },
    }));
  }

  /** The player checks in with their token: while the window is open, or to come back
   * when absent. */
  async byPlayer(tournamentId: string, playerId: string) {
    return this.tournaments.run(tournamentId, null, null, undefined, (state) => {
      const player = playerOf(state, playerId);
      const refused = this.closedFor(state, player);
      if (refused !== null) throw new ServiceError(serviceCodes.checkInClosed, refused);
      return this.checkingIn(state, player, 'player');
    });
  }

  /** The organizer checks a player in (at the desk), any time before the end. */
  byOrganizer(organizerId: OrganizerId, id: string, playerId: string, idempotencyKey?: string) {
    return this.tournaments.run(id, organizerId, { checkIn: playerId }, idempotencyKey, (state) => {
      const player = playerOf(state, playerId);
      if (state.status === 'finished') throw new ServiceError(serviceCodes.tournamentFinished, 'the tournament is over');
      if (state.withdrawn.has(playerId)) throw new ServiceError(serviceCodes.playerWithdrawn, `${playerId} withdrew`);
      return this.checkingIn(state, player, 'organizer');
    });
  }

  private checkingIn(state: TournamentState, player: Player, by: 'player' | 'organizer'): Decision<{ player: string; checkedIn: true; absent: null }> {
    const needed = state.absent.has(player.id) || (state.rounds.length === 0 && !state.checkedIn.has(player.id));
    const events: TournamentEvent[] = needed ? [{ type: 'PlayerCheckedIn', player: player.id, by }] : [];
    return { events, answer: { player: player.id, checkedIn: true, absent: null }, unblocks: true };
  }

  /** Why the player may not check in now, or null. */
  private closedFor(state: TournamentState, player: Player): string | null {
    if (state.status === 'finished') return 'the tournament is over';
    if (state.withdrawn.has(player.id)) return 'you withdrew from the tournament';
    if (state.absent.has(player.id)) return null;
    // Round 1 was paired: a player who is not absent is paired anyway.
    if (state.rounds.length > 0) return null;
    if (state.checkIn === null || !state.checkIn.open) return 'check-in is not open';
    if (state.checkIn.closesAt !== null && Date.parse(state.checkIn.closesAt) <= this.tournaments.clock()) return `check-in closed at ${state.checkIn.closesAt}`;
    return null;
  }
}
