// A tournament's public page (/t/{id}; a browser asking for /tournaments/{id} is sent
// here): its status, why it is blocked, the standings with tie-breaks and every round's
// tables linking to their games, read again whenever the tournament's feed has news.
import { secrets } from '../tournament-api.ts';
import { Page, useCatalog } from './common.tsx';
import { Blocked, FeedBadge, formatWords, Rounds, StandingsTable, statusWords, useTournament } from './tournament-common.tsx';

export function TournamentPage({ id }: { id: string }) {
  const { summary, standings, feed, problem } = useTournament(id);
  const catalog = useCatalog();
  if (summary === null) return <Page title="Tournament">{problem ? <p role="alert" data-testid="problem">{problem}</p> : <p>Loading…</p>}</Page>;
  const game = catalog?.find((e) => e.type === summary.gameType)?.title ?? summary.gameType;
  const mine = secrets.token(id) !== null;
  const outlook = summary.outlook;
  return (
    <Page title={summary.name}>
      <p class="controls" data-testid="status-line">
        <span class={`badge ${summary.status}`} data-testid="status">{statusWords[summary.status]}</span>
        <span>{game} · {formatWords(summary.format)} · {summary.players.filter((p) => !p.withdrawn).length} players</span>
        <FeedBadge state={feed} />
        {mine ? <a href={`/t/${id}/me`} data-testid="my-page">Your page</a> : null}
      </p>
      <Blocked summary={summary} />
      {summary.status !== 'finished' && outlook !== null && summary.blocked === null ? (
        <p class="hint" data-testid="outlook">
          Round {outlook.round}: {outlook.blocked ? `cannot be paired as things stand (${outlook.blocked})` : `${outlook.players} players at ${outlook.tables.length} table${outlook.tables.length === 1 ? '' : 's'}${outlook.byes ? `, ${outlook.byes} bye${outlook.byes > 1 ? 's' : ''}` : ''}`}
          {summary.scheduled ? ` · scheduled for ${new Date(summary.scheduled.at).toLocaleString()}` : ''}
        </p>
      ) : null}
      {summary.registration?.open ? <p class="hint">Registration is open: ask the organizer for the join link.</p> : null}
      <div class="layout">
        <section aria-labelledby="standings-title">
          <h2 id="standings-title">Standings</h2>
          {standings ? <StandingsTable standings={standings} /> : <p>Loading…</p>}
        </section>
        <section aria-labelledby="rounds-title">
          <h2 id="rounds-title">Rounds</h2>
          <Rounds summary={summary} />
        </section>
      </div>
    </Page>
  );
}
