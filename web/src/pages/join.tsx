// The join link's page (/join/{code}): what the tournament is and whether it takes
// entries, a name to register with, and the tournament token shown once, with a copy
// button, kept in this browser (localStorage) for the player's page. The registration
// carries one random Idempotency-Key per attempt, so a retry after a lost answer gets
// the same entry and token instead of a second entry.
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api.ts';
import { publicApi, secrets, type JoinLink } from '../tournament-api.ts';
import { Page, useCatalog } from './common.tsx';
import { formatWords, problemText } from './tournament-common.tsx';

interface Joined {
  readonly tournament: string;
  readonly token: string;
  readonly status: string;
}

export function JoinPage({ code }: { code: string }) {
  const catalog = useCatalog();
  const [link, setLink] = useState<JoinLink | null>(null);
  const [name, setName] = useState('');
  // A refusal created nothing, so the next try is a new registration; after a lost
  // answer the same key asks again for the entry the server may have made.
  const [attempt, setAttempt] = useState(() => crypto.randomUUID());
  const [joined, setJoined] = useState<Joined | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => void publicApi.joinLink(code).then(setLink, (e) => setProblem(problemText(e))), [code]);
  const join = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const answer = await publicApi.join(code, name, attempt);
      secrets.keepToken(answer.tournament, answer.token);
      setJoined({ tournament: answer.tournament, token: answer.token, status: answer.status });
      // The count of players and places left now includes this entry.
      publicApi.joinLink(code).then(setLink, () => undefined);
    } catch (e) {
      if (e instanceof ApiError) setAttempt(crypto.randomUUID());
      setProblem(problemText(e));
    }
    setBusy(false);
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(joined!.token);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin, a refusal): the field is selected to copy by hand.
      (document.getElementById('token') as HTMLInputElement | null)?.select();
    }
  };
  const game = link ? (catalog?.find((e) => e.type === link.tournament.gameType)?.title ?? link.tournament.gameType) : '';
  return (
    <Page title={link ? `Join ${link.tournament.name}` : 'Join a tournament'}>
      {problem ? <p role="alert" class="refusal" data-testid="problem">{problem}</p> : null}
      {link === null ? (problem ? null : <p>Loading…</p>) : (
        <>
          <p data-testid="about">
            <strong>{link.tournament.name}</strong>: {game}, {formatWords(link.tournament.format)}. {link.tournament.players} player{link.tournament.players === 1 ? '' : 's'} so far
            {link.placesLeft !== null ? `, ${link.placesLeft} place${link.placesLeft === 1 ? '' : 's'} left` : ''}.
            {link.registration.approval === 'manual' ? ' The organizer approves each entry.' : ''}
            {' '}<a href={`/t/${link.tournament.id}`}>The tournament's page</a>
          </p>
          {joined ? (
            <section class="created" data-testid="joined" aria-labelledby="joined-title">
              <h2 id="joined-title">{joined.status === 'pending' ? 'Your entry is waiting for approval' : 'You are registered'}</h2>
              <p>This is your tournament token. It is shown only this once: keep it (this browser keeps it too). You play all your tables with it.</p>
              <div class="controls">
                <label for="token">Your token</label>
                <input id="token" data-testid="token" readOnly value={joined.token} size={40} />
                <button type="button" data-testid="copy" onClick={() => void copy()}>{copied ? 'Copied' : 'Copy'}</button>
              </div>
              <p><a href={`/t/${joined.tournament}/me`} data-testid="my-page">Go to your page</a> (check in there, find your table).</p>
            </section>
          ) : link.open ? (
            <form class="controls" onSubmit={(e) => (e.preventDefault(), void join())} aria-label="Register">
              <label for="join-name">Your name</label>
              <input id="join-name" data-testid="name" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
              <button type="submit" data-testid="join" disabled={busy}>Register</button>
            </form>
          ) : <p data-testid="closed">Registration is closed.</p>}
        </>
      )}
    </Page>
  );
}
