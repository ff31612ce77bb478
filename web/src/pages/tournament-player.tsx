// A player's page (/t/{id}/me): with their tournament token (from the join link's page,
// kept in localStorage, or given as #token=… by a link the organizer shared) it shows
// their entry, checks them in, links to their table now and lists their results. The
// token travels only in the Authorization header and in play links' fragments.
import { useState } from 'preact/hooks';
import { playerApi, publicApi, secrets, type Mine } from '../tournament-api.ts';
import { Page } from './common.tsx';
import { Blocked, FeedBadge, problemText, StandingsTable, useLatest, useTournament } from './tournament-common.tsx';

/** The token: from the fragment (then kept, and the fragment cleared so the address
 * can be shared), or the one this browser kept. */
function tokenFor(id: string): string | null {
  const fragment = new URLSearchParams(location.hash.slice(1)).get('token');
  if (fragment) {
    secrets.keepToken(id, fragment);
    history.replaceState(null, '', location.pathname + location.search);
    return fragment;
  }
  return secrets.token(id);
}

const entryWords = { pending: 'waiting for the organizer to approve it', approved: 'approved', refused: 'refused by the organizer', removed: 'removed by the organizer' } as const;

export function PlayerPage({ id }: { id: string }) {
  const [token] = useState(() => tokenFor(id));
  const { summary, standings, feed } = useTournament(id);
  const [checked, setChecked] = useState(0);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // What the player sees follows the tournament: read again at every change of it.
  const read = useLatest(async () => {
    if (token === null) return null;
    const me = await playerApi(token).me();
    return { me, games: me.player ? await publicApi.games(id, me.player.id) : [] };
  }, [token, summary?.version, checked]);
  const me: Mine | null = read.value?.me ?? null;
  const games = read.value?.games ?? [];
  const problem = refusal ?? read.problem;
  if (token === null) {
    return (
      <Page title="Your tournament page">
        <p role="alert">This browser holds no token for this tournament. Open the link you got when you registered, or register through the join link.</p>
        <p><a href={`/t/${id}`}>The tournament's public page</a></p>
      </Page>
    );
  }
  const checkIn = async () => {
    setBusy(true);
    try {
      await playerApi(token).checkIn();
      setRefusal(null);
    } catch (e) {
      setRefusal(problemText(e));
    }
    setChecked((n) => n + 1);
    setBusy(false);
  };
  const player = me?.player ?? null;
  const canCheckIn = player !== null && !player.withdrawn && ((me?.checkIn?.open && !player.checkedIn) || player.absent !== null);
  const results = player === null ? [] : games.filter((g) => g.status === 'finished');
  // A table's players in seat order, from the tournament's rounds.
  const seatsOf = new Map(summary?.rounds.flatMap((r) => r.tables.map((t) => [t.gameId, t.players] as const)) ?? []);
  return (
    <Page title={me ? `${me.name}: your page` : 'Your tournament page'}>
      {problem ? <p role="alert" class="refusal" data-testid="problem">{problem}</p> : null}
      {me === null ? <p>Loading…</p> : (
        <>
          <p class="controls">
            <span>{player ? <>You play as <strong data-testid="my-name">{player.name}</strong></> : 'Your entry'}</span>
            <span class={`badge ${me.status}`}>{me.status}</span>
            <FeedBadge state={feed} />
            <a href={`/t/${id}`}>Public page</a>
          </p>
          {me.entry && me.entry.status !== 'approved' ? <p data-testid="entry-status">Your entry is {entryWords[me.entry.status]}.</p> : null}
          {player?.withdrawn ? <p data-testid="withdrawn">You have been withdrawn from the tournament.</p> : null}
          {player?.absent ? (
            <p data-testid="absent" role="status">
              You are left out of the rounds to come ({player.absent === 'no-show' ? 'you did not show up at your table' : 'you did not check in before round 1'}). Check in to be paired again from the next round.
            </p>
          ) : null}
          {player && me.checkIn?.open && !player.absent ? <p data-testid="checked-in">{player.checkedIn ? 'You are checked in for round 1.' : 'Check-in is open: check in to be paired in round 1.'}</p> : null}
          {canCheckIn ? <button type="button" data-testid="check-in" disabled={busy} onClick={() => void checkIn()}>Check in</button> : null}
          {summary ? <Blocked summary={summary} /> : null}
          <section aria-labelledby="table-title">
            <h2 id="table-title">Your table now</h2>
            {me.table ? (
              <p data-testid="table-now">
                Round {me.table.round}, seat {me.table.seat + 1}:{' '}
                <a href={`/play/${me.table.gameId}#token=${encodeURIComponent(token)}`} data-testid="play-link">Play your table</a>
              </p>
            ) : <p data-testid="no-table">{me.status === 'finished' ? 'The tournament is over.' : 'No table for you right now: wait for the next round.'}</p>}
          </section>
          <section aria-labelledby="results-title">
            <h2 id="results-title">Your results</h2>
            {results.length === 0 ? <p>No finished table yet.</p> : (
              <ul data-testid="results">
                {results.map((g) => {
                  const seat = seatsOf.get(g.id)?.indexOf(player!.id) ?? -1;
                  const result = g.result as { ranks: number[]; scores: number[] } | null;
                  return (
                    <li data-game-id={g.id}>
                      Round {g.tournament?.round}: {seat >= 0 && result ? `place ${result.ranks[seat]} of ${g.seats.length}, score ${result.scores[seat]}` : 'finished'} · <a href={`/replay/${g.id}`}>Replay</a>
                    </li>
                  );
                })}
              </ul>
            )}
          </section>
          {standings && player ? (
            <section aria-labelledby="standings-title">
              <h2 id="standings-title">Standings</h2>
              <StandingsTable standings={standings} highlight={player.id} />
            </section>
          ) : null}
        </>
      )}
    </Page>
  );
}
