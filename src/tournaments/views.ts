// A tournament as the API shows it: its summary, and its standings with names and ratings.
import { ratedAs } from './ratings.ts';
import { outlook } from './rounds.ts';
import type { Player, TournamentState } from './log.ts';
import type { Tournaments } from './tournaments.ts';
import type { TournamentStore } from './tournament-store.ts';

/** A player as the views show them: their entry, whether they withdrew, why they are
 * left out of the rounds to come (null: they are paired), whether they checked in. */
export const playerView = (state: TournamentState, p: Player) => ({
  ...p,
  withdrawn: state.withdrawn.has(p.id),
  absent: state.absent.get(p.id) ?? null,
  checkedIn: p.bot !== undefined || state.checkedIn.has(p.id),
});

export function summarizeTournament(state: TournamentState) {
  return {
    id: state.id,
    name: state.name,
    gameType: state.gameType,
    organizerId: state.organizerId,
    format: state.format,
    settings: state.settings,
    status: state.status,
    version: state.version,
    blocked: state.blocked,
    outlook: outlook(state),
    checkIn: state.checkIn,
    registration: state.registration,
    players: state.players.map((p) => playerView(state, p)),
    rounds: state.rounds.map((r) => ({
      round: r.round,
      byes: r.byes,
      repeats: r.repeats,
      tableDeadline: r.tableDeadline,
      tables: r.tables.map((t) => ({
        gameId: t.gameId,
        players: t.players,
        finished: state.results.has(t.gameId),
        ...(t.placement ? { placement: true as const } : {}),
        adjudicated: state.adjudicated.get(t.gameId) ?? null,
      })),
    })),
    scheduled: state.scheduled,
  };
}


/** The standings (a projection of the finished tables) with each player's name and current rating. */
export async function standingsView(tournaments: Tournaments, store: TournamentStore, state: TournamentState) {
  const byId = new Map(state.players.map((p) => [p.id, p]));
  const keys = new Map(state.players.map((p) => [p.id, ratedAs(state, p)]));
  const ratings = await store.readRatings(state.gameType, [...keys.values()]);
  return {
    tournament: state.id,
    round: state.rounds.length,
    finished: state.status === 'finished',
    blocked: state.blocked,
    standings: tournaments.standingsOf(state).map((s) => {
      const player = byId.get(s.player)!;
      const rating = ratings.get(keys.get(s.player)!);
      return {
        ...s,
        name: player.name,
        externalId: player.externalId ?? null,
        withdrawn: state.withdrawn.has(s.player),
        absent: state.absent.get(s.player) ?? null,
        rating: rating === undefined ? null : { mu: rating.mu, sigma: rating.sigma, ordinal: rating.ordinal, tables: rating.tables },
      };
    }),
  };
}

const csvField = (value: unknown): string => {
  // A name starting like a formula is read as text by spreadsheets once prefixed with '.
  const text = value === null || value === undefined ? '' : typeof value === 'string' && /^[=+\-@]/.test(value) ? `'${value}` : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** The standings as CSV, one player a line; names are quoted and never read as formulas. */
export function standingsCsv(view: Awaited<ReturnType<typeof standingsView>>): string {
  const tieBreaks = Object.keys(view.standings[0]?.tieBreaks ?? {});
  const header = ['rank', 'player', 'name', 'externalId', 'points', 'played', 'wins', 'byes', ...tieBreaks.map((t) => `tiebreak:${t}`), 'withdrawn', 'rating', 'ratingMu', 'ratingSigma'];
  const lines = view.standings.map((s) =>
    [s.rank, s.player, s.name, s.externalId, s.points, s.played, s.wins, s.byes, ...tieBreaks.map((t) => s.tieBreaks[t as keyof typeof s.tieBreaks]), s.withdrawn, s.rating?.ordinal, s.rating?.mu, s.rating?.sigma].map(csvField).join(','),
  );
  return [header.join(','), ...lines].join('\n') + '\n';
}
