// A tournament as the API shows it: its summary, and its standings with names and ratings.
import { ratedAs } from './ratings.ts';
import type { TournamentState } from './log.ts';
import type { Tournaments } from './tournaments.ts';
import type { TournamentStore } from './tournament-store.ts';

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
    players: state.players.map((p) => ({ ...p, withdrawn: state.withdrawn.has(p.id) })),
    rounds: state.rounds.map((r) => ({
      round: r.round,
      byes: r.byes,
      repeats: r.repeats,
      tableDeadline: r.tableDeadline,
      tables: r.tables.map((t) => ({ gameId: t.gameId, players: t.players, finished: state.results.has(t.gameId) })),
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
    standings: tournaments.standingsOf(state).map((s) => {
      const player = byId.get(s.player)!;
      const rating = ratings.get(keys.get(s.player)!);
      return {
        ...s,
        name: player.name,
        externalId: player.externalId ?? null,
        withdrawn: state.withdrawn.has(s.player),
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
