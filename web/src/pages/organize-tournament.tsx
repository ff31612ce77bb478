// One tournament in the organizer's console (/organize/{id}): its state and why it is
// blocked, the join link and its entries, check-in, the players (check in at the desk,
// withdraw), pairing, the format (the way out of a blocked round), ending, adjudicating
// a table or correcting its result, webhooks with their deliveries, and the exports. Everything is read again
// whenever the tournament's feed has news; every action's refusal is shown in words.
import type { ComponentChildren, VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Delivery, Entry, Format, OrganizerApi, Outlook, Summary, Webhook } from '../tournament-api.ts';
import { Page } from './common.tsx';
import { Blocked, FeedBadge, formatWords, nameOf, problemText, Rounds, StandingsTable, useLatest, useTournament } from './tournament-common.tsx';

type Act = (what: string, action: () => Promise<unknown>) => Promise<void>;

function outlookWords(outlook: Outlook): string {
  if (outlook === null) return 'No round is to come.';
  if (outlook.blocked) return `Round ${outlook.round} could not be paired as things stand: ${outlook.blocked}`;
  return `Round ${outlook.round} would seat ${outlook.players} players at ${outlook.tables.length} table${outlook.tables.length === 1 ? '' : 's'} (${outlook.tables.join(', ')})${outlook.byes ? ` with ${outlook.byes} bye${outlook.byes > 1 ? 's' : ''}` : ''}.`;
}

function Section({ title, id, children }: { title: string; id: string; children: ComponentChildren }) {
  return (
    <section aria-labelledby={`${id}-title`} data-testid={id} class="console-part">
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
    </section>
  );
}

function RegistrationPart({ api, summary, act, stamp }: { api: OrganizerApi; summary: Summary; act: Act; stamp: string }) {
  const view = useLatest(() => api.registration(summary.id), [stamp]).value;
  const entries: Entry[] = useLatest(() => api.entries(summary.id), [stamp]).value ?? [];
  const [approval, setApproval] = useState<'automatic' | 'manual'>('automatic');
  const [capacity, setCapacity] = useState<number | ''>('');
  const link = view?.code ? `${location.origin}/join/${view.code}` : null;
  return (
    <Section title="Registration" id="registration">
      {link ? (
        <p>
          Join link{view?.open ? '' : ' (closed)'}: <a href={link} data-testid="join-link">{link}</a> · code <code data-testid="join-code">{view!.code}</code>
          {view?.placesLeft !== null && view?.placesLeft !== undefined ? ` · ${view.placesLeft} places left` : ''}
        </p>
      ) : <p>Self-registration has not been opened.</p>}
      <form class="controls" aria-label="Open registration" onSubmit={(e) => (e.preventDefault(), void act('Registration opened', () => api.openRegistration(summary.id, { capacity: capacity === '' ? null : capacity, approval })))}>
        <label for="r-approval">Entries are <select id="r-approval" data-testid="r-approval" value={approval} onChange={(e) => setApproval(e.currentTarget.value as 'automatic' | 'manual')}>
          <option value="automatic">players at once</option>
          <option value="manual">approved by me</option>
        </select></label>
        <label for="r-capacity">Places <input id="r-capacity" type="number" min={1} placeholder="no limit" value={capacity} onInput={(e) => setCapacity(e.currentTarget.value === '' ? '' : Number(e.currentTarget.value))} /></label>
        <button type="submit" data-testid="open-registration">{view?.open ? 'Change registration' : 'Open registration'}</button>
        {view?.open ? <button type="button" data-testid="close-registration" onClick={() => void act('Registration closed', () => api.closeRegistration(summary.id))}>Close registration</button> : null}
      </form>
      {entries.length ? (
        <div class="scroll-x" tabIndex={0} role="region" aria-label="Entries table">
        <table data-testid="entries">
          <caption>Entries through the join link</caption>
          <thead><tr><th scope="col">Name</th><th scope="col">Entry</th><th scope="col">Decide</th></tr></thead>
          <tbody>
            {entries.map((entry) => (
              <tr data-entry={entry.id} data-status={entry.status}>
                <td>{entry.name}</td>
                <td>{entry.status}</td>
                <td>
                  {entry.status === 'pending' ? (
                    <>
                      <button type="button" data-action="approve" onClick={() => void act(`${entry.name} approved`, () => api.decide(summary.id, entry.id, 'approve'))}>Approve<span class="visually-hidden"> {entry.name}</span></button>{' '}
                      <button type="button" data-action="refuse" onClick={() => void act(`${entry.name} refused`, () => api.decide(summary.id, entry.id, 'refuse'))}>Refuse<span class="visually-hidden"> {entry.name}</span></button>
                    </>
                  ) : entry.status === 'approved' ? (
                    <button type="button" data-action="remove" onClick={() => void act(`${entry.name} removed`, () => api.decide(summary.id, entry.id, 'remove'))}>Remove<span class="visually-hidden"> {entry.name}</span></button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        </div>
      ) : null}
    </Section>
  );
}

function PlayersPart({ api, summary, act }: { api: OrganizerApi; summary: Summary; act: Act }) {
  const window = summary.checkIn;
  const before = summary.rounds.length === 0;
  return (
    <Section title="Players and check-in" id="players">
      <p class="controls">
        <span data-testid="check-in-state">{window === null ? 'Check-in was not opened: everyone is paired.' : window.open ? 'Check-in is open: round 1 pairs only those checked in.' : 'Check-in is closed.'}</span>
        {before && !window?.open ? <button type="button" data-testid="open-check-in" onClick={() => void act('Check-in opened', () => api.openCheckIn(summary.id))}>Open check-in</button> : null}
        {window?.open ? <button type="button" data-testid="close-check-in" onClick={() => void act('Check-in closed', () => api.closeCheckIn(summary.id))}>Close check-in</button> : null}
      </p>
      <div class="scroll-x" tabIndex={0} role="region" aria-label="Players table">
        <table data-testid="player-list">
          <caption>{summary.players.length} players, {summary.players.filter((p) => p.checkedIn && !p.withdrawn).length} checked in</caption>
          <thead><tr><th scope="col">Name</th><th scope="col">State</th><th scope="col">Actions</th></tr></thead>
          <tbody>
            {summary.players.map((p) => (
              <tr data-player={p.id} data-checked-in={String(p.checkedIn)} data-withdrawn={String(p.withdrawn)} data-absent={p.absent ?? ''}>
                <td>{p.name}{p.bot ? ` (bot: ${p.bot})` : ''}</td>
                <td>{p.withdrawn ? 'withdrawn' : p.absent ? `absent (${p.absent === 'no-show' ? 'no-show' : 'not checked in'})` : p.checkedIn ? 'checked in' : 'not checked in'}</td>
                <td>
                  {!p.withdrawn && (p.absent || (!p.checkedIn && window?.open)) ? <button type="button" data-action="check-in" onClick={() => void act(`${p.name} checked in`, () => api.checkIn(summary.id, p.id))}>Check in<span class="visually-hidden"> {p.name}</span></button> : null}{' '}
                  {!p.withdrawn && summary.status !== 'finished' ? <button type="button" data-action="withdraw" onClick={() => void act(`${p.name} withdrawn`, () => api.withdraw(summary.id, p.id))}>Withdraw<span class="visually-hidden"> {p.name}</span></button> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Section>
  );
}

/** A table's result set by the organizer: a place per seat and a reason end a table
 * still playing with that result (adjudicate), or replace a finished table's (correct). */
function Verdict({ api, summary, gameId, players, finished, act }: { api: OrganizerApi; summary: Summary; gameId: string; players: readonly string[]; finished: boolean; act: Act }) {
  const [open, setOpen] = useState(false);
  const [ranks, setRanks] = useState<number[]>(() => players.map((_, i) => i + 1));
  const [reason, setReason] = useState('');
  const name = nameOf(summary);
  const action = finished ? 'correct' : 'adjudicate';
  if (!open) return <button type="button" data-action={action} onClick={() => setOpen(true)}>{finished ? 'Correct the result…' : 'Adjudicate…'}</button>;
  const send = () => act(finished ? 'Result corrected' : 'Table adjudicated', () => api[action](summary.id, gameId, { ranks, reason }));
  return (
    <form class="adjudicate" aria-label={`${finished ? 'Correct' : 'Adjudicate'} the table of ${players.map(name).join(', ')}`} onSubmit={(e) => (e.preventDefault(), void send())}>
      {players.map((p, seat) => (
        <label for={`rank-${gameId}-${seat}`}>Place of {name(p)} <input id={`rank-${gameId}-${seat}`} data-seat={seat} type="number" min={1} max={players.length} value={ranks[seat]} onInput={(e) => setRanks(ranks.map((r, i) => (i === seat ? Number(e.currentTarget.value) : r)))} /></label>
      ))}
      <label for={`reason-${gameId}`}>Reason <input id={`reason-${gameId}`} data-testid="reason" required maxLength={500} value={reason} onInput={(e) => setReason(e.currentTarget.value)} /></label>
      <button type="submit" data-action="end-table">{finished ? 'Correct the result' : 'End the table with this result'}</button>
    </form>
  );
}

function RoundsPart({ api, summary, act }: { api: OrganizerApi; summary: Summary; act: Act }) {
  const next = summary.rounds.length + 1;
  const playing = summary.rounds.at(-1)?.tables.some((t) => !t.finished) ?? false;
  return (
    <Section title="Rounds" id="rounds">
      <p data-testid="console-outlook">{outlookWords(summary.outlook)}</p>
      {summary.status !== 'finished' && summary.outlook !== null && !playing ? (
        <button type="button" data-testid="pair" onClick={() => void act(`Round ${next} paired`, () => api.pair(summary.id, next))}>Pair round {next} now</button>
      ) : null}
      <Rounds summary={summary}>
        {(table) => <Verdict key={`${table.gameId}-${table.finished}`} api={api} summary={summary} gameId={table.gameId} players={table.players} finished={table.finished} act={act} />}
      </Rounds>
    </Section>
  );
}

function FormatPart({ api, summary, act }: { api: OrganizerApi; summary: Summary; act: Act }) {
  const format = summary.format as Format;
  const [min, setMin] = useState(format.tableSize.min);
  const [max, setMax] = useState(format.tableSize.max);
  const [byes, setByes] = useState(format.byes ?? true);
  const [rounds, setRounds] = useState('rounds' in format ? format.rounds : 0);
  const [reason, setReason] = useState('');
  useEffect(() => {
    setMin(format.tableSize.min);
    setMax(format.tableSize.max);
  }, [summary.version]);
  const changed = (): Format => {
    const tableSize = { min, max };
    return format.kind === 'knockout' ? { ...format, tableSize, byes } : { ...format, rounds, tableSize, byes };
  };
  if (summary.status === 'finished') return null;
  return (
    <Section title="Format" id="format">
      <p>{formatWords(summary.format)}</p>
      <form class="controls" aria-label="Change the format" onSubmit={(e) => (e.preventDefault(), void act('Format changed', () => api.changeFormat(summary.id, changed())))}>
        <label for="f-min">Smallest table <input id="f-min" data-testid="f-min" type="number" min={2} value={min} onInput={(e) => setMin(Number(e.currentTarget.value))} /></label>
        <label for="f-max">Largest table <input id="f-max" data-testid="f-max" type="number" min={2} value={max} onInput={(e) => setMax(Number(e.currentTarget.value))} /></label>
        {format.kind !== 'knockout' ? <label for="f-rounds">Rounds <input id="f-rounds" type="number" min={1} value={rounds} onInput={(e) => setRounds(Number(e.currentTarget.value))} /></label> : null}
        <label for="f-byes"><input id="f-byes" type="checkbox" checked={byes} onChange={(e) => setByes(e.currentTarget.checked)} /> Byes</label>
        <button type="submit" data-testid="change-format">Change the format for the rounds to come</button>
      </form>
      <form class="controls" aria-label="End the tournament" onSubmit={(e) => (e.preventDefault(), void act('Tournament ended', () => api.end(summary.id, reason)))}>
        <label for="end-reason">Reason <input id="end-reason" required maxLength={500} value={reason} onInput={(e) => setReason(e.currentTarget.value)} /></label>
        <button type="submit" data-testid="end">End the tournament now</button>
      </form>
    </Section>
  );
}

function WebhooksPart({ api, summary, act, stamp }: { api: OrganizerApi; summary: Summary; act: Act; stamp: string }) {
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const [reads, setReads] = useState(0);
  // The organizer's webhooks for this tournament (or all of theirs), each with its deliveries.
  const hooks: { hook: Webhook; deliveries: Delivery[] }[] =
    useLatest(async () => {
      const mine = (await api.webhooks()).filter((h) => h.tournament === null || h.tournament === summary.id);
      return Promise.all(mine.map(async (hook) => ({ hook, deliveries: await api.deliveries(hook.id) })));
    }, [stamp, reads]).value ?? [];
  const add = () => act('Webhook registered', async () => {
    const created = await api.addWebhook(url, summary.id);
    setSecret(created.secret);
    setUrl('');
    setReads(reads + 1);
  });
  return (
    <Section title="Webhooks" id="webhooks">
      <form class="controls" aria-label="Register a webhook" onSubmit={(e) => (e.preventDefault(), void add())}>
        <label for="w-url">Send this tournament's events to <input id="w-url" data-testid="w-url" type="url" required maxLength={2000} value={url} onInput={(e) => setUrl(e.currentTarget.value)} /></label>
        <button type="submit" data-testid="add-webhook">Register</button>
      </form>
      {secret ? <p data-testid="w-secret-line">Signing secret (shown once: check each delivery's Spielwerk-Signature with it): <code data-testid="w-secret">{secret}</code></p> : null}
      <button type="button" data-testid="refresh-deliveries" onClick={() => setReads(reads + 1)}>Read the deliveries again</button>
      {hooks.map(({ hook: h, deliveries: list }) => {
        return (
          <div data-webhook={h.id}>
            <p>{h.url}: {list.filter((d) => d.status === 'delivered').length} delivered, {list.filter((d) => d.status === 'pending').length} pending, {list.filter((d) => d.status === 'failed').length} failed</p>
            <ul class="deliveries" data-testid="deliveries">
              {list.map((d) => (
                <li data-delivery={d.id} data-status={d.status}>#{d.seq} {d.type}: {d.status}, {d.attempts} attempt{d.attempts === 1 ? '' : 's'}{d.log.at(-1)?.status ? ` (HTTP ${d.log.at(-1)!.status})` : d.log.at(-1)?.error ? ` (${d.log.at(-1)!.error})` : ''}</li>
              ))}
            </ul>
          </div>
        );
      })}
    </Section>
  );
}

function ExportsPart({ api, summary, act }: { api: OrganizerApi; summary: Summary; act: Act }) {
  const save = (path: string, filename: string) => act(`${filename} downloaded`, async () => {
    const url = URL.createObjectURL(await api.download(path));
    const link = Object.assign(document.createElement('a'), { href: url, download: filename });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  });
  const id = summary.id;
  return (
    <Section title="Exports" id="exports">
      <p class="controls">
        <a href={`/tournaments/${id}/standings?format=csv`} data-testid="standings-csv" download>Standings (CSV)</a>
        <button type="button" data-testid="games-ndjson" onClick={() => void save(`/tournaments/${id}/games.ndjson`, `tournament-${id}-games.ndjson`)}>Download the games (NDJSON)</button>
        <button type="button" data-testid="archive" onClick={() => void save(`/tournaments/${id}/archive`, `tournament-${id}-archive.json`)}>Download the archive (JSON)</button>
      </p>
    </Section>
  );
}

export function TournamentConsole({ api, id, forget }: { api: OrganizerApi; id: string; forget: VNode }) {
  const { summary, standings, feed, problem, reload } = useTournament(id);
  const [said, setSaid] = useState<{ ok: boolean; text: string } | null>(null);
  const [acted, setActed] = useState(0);
  const act: Act = async (what, action) => {
    try {
      const answer = await action();
      const outlook = (answer as { outlook?: Outlook } | undefined)?.outlook;
      setSaid({ ok: true, text: outlook !== undefined ? `${what}. ${outlookWords(outlook)}` : `${what}.` });
    } catch (e) {
      setSaid({ ok: false, text: problemText(e) });
    }
    setActed((n) => n + 1);
    reload();
  };
  if (summary === null) return <Page title="Organizer console">{forget}{problem ? <p role="alert" data-testid="problem">{problem}</p> : <p>Loading…</p>}</Page>;
  // The parts that read more than the summary (registration, entries, webhooks) read
  // again at each change of the tournament and after each action (some write no event).
  const stamp = `${summary.version}:${acted}`;
  return (
    <Page title={`${summary.name}: console`}>
      <p class="controls">
        <span class={`badge ${summary.status}`} data-testid="status">{summary.status}</span>
        <FeedBadge state={feed} />
        <a href={`/t/${id}`} data-testid="public-page">Public page</a>
        <a href="/organize">All tournaments</a>
        {forget}
      </p>
      <p aria-live="polite" data-testid="said" class={said?.ok === false ? 'refusal' : ''} data-ok={said ? String(said.ok) : ''}>{said?.text ?? ''}</p>
      <Blocked summary={summary} />
      <RegistrationPart api={api} summary={summary} act={act} stamp={stamp} />
      <PlayersPart api={api} summary={summary} act={act} />
      <RoundsPart api={api} summary={summary} act={act} />
      <FormatPart api={api} summary={summary} act={act} />
      <WebhooksPart api={api} summary={summary} act={act} stamp={stamp} />
      <ExportsPart api={api} summary={summary} act={act} />
      {standings ? (
        <section aria-labelledby="console-standings-title">
          <h2 id="console-standings-title">Standings</h2>
          <StandingsTable standings={standings} />
        </section>
      ) : null}
    </Page>
  );
}
