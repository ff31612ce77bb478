// The organizer's console (/organize): the key pasted once (kept in sessionStorage,
// see tournament-api.ts), the organizer's tournaments, and a form that creates one;
// /organize/{id} runs one tournament (organize-tournament.tsx).
import { useEffect, useState } from 'preact/hooks';
import { optionProperties, type CatalogEntry } from '../api.ts';
import { organizerApi, secrets, type Format, type OrganizerApi } from '../tournament-api.ts';
import { Page, useCatalog } from './common.tsx';
import { OptionField } from './lobby.tsx';
import { TournamentConsole } from './organize-tournament.tsx';
import { problemText } from './tournament-common.tsx';

function KeyForm({ done }: { done: (key: string) => void }) {
  const [key, setKey] = useState('');
  return (
    <form class="controls" aria-label="Organizer key" onSubmit={(e) => (e.preventDefault(), key.trim() && done(key.trim()))}>
      <label for="organizer-key">Your organizer key</label>
      <input id="organizer-key" data-testid="key" type="password" autocomplete="off" value={key} onInput={(e) => setKey(e.currentTarget.value)} />
      <button type="submit" data-testid="use-key">Use this key</button>
      <p class="hint">The key stays in this tab only (sessionStorage) until you close it or forget it here; it is sent only to this server, in a header.</p>
    </form>
  );
}

const kinds = { swiss: 'Swiss: similar standings meet', rotation: 'Rotation: as many different opponents as possible', knockout: 'Knockout: the top of each table go on' } as const;

function CreateTournament({ api, entries, created }: { api: OrganizerApi; entries: CatalogEntry[]; created: (id: string) => void }) {
  const [name, setName] = useState('');
  const [gameType, setGameType] = useState(entries[0]?.type ?? '');
  const entry = entries.find((e) => e.type === gameType);
  const [kind, setKind] = useState<keyof typeof kinds>('swiss');
  const [rounds, setRounds] = useState(4);
  const [min, setMin] = useState(3);
  const [max, setMax] = useState(4);
  const [advanceBy, setAdvanceBy] = useState(1);
  const [byes, setByes] = useState(true);
  const [advance, setAdvance] = useState<'auto' | 'organizer'>('auto');
  const [noShow, setNoShow] = useState<number | ''>('');
  const [noShowAction, setNoShowAction] = useState<'bot' | 'forfeit'>('forfeit');
  const [absentAfter, setAbsentAfter] = useState(1);
  const [options, setOptions] = useState<Record<string, unknown>>({});
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => setOptions({}), [gameType]);
  const submit = async () => {
    setProblem(null);
    const tableSize = { min, max };
    const format: Format = kind === 'knockout' ? { kind, tableSize, advance: advanceBy, byes } : { kind, rounds, tableSize, byes };
    const settings: Record<string, unknown> = { advance, options: Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) };
    if (noShow !== '') settings['noShow'] = { afterSeconds: noShow, action: noShowAction, absentAfter };
    try {
      created((await api.create({ name, gameType, format, settings })).id);
    } catch (e) {
      setProblem(problemText(e));
    }
  };
  const number = (id: string, label: string, value: number, set: (n: number) => void, hint?: string) => (
    <label for={id}>{label} <input id={id} type="number" min={0} value={value} onInput={(e) => set(Number(e.currentTarget.value))} />{hint ? <span class="hint">{hint}</span> : null}</label>
  );
  return (
    <form class="create" aria-label="Create a tournament" onSubmit={(e) => (e.preventDefault(), void submit())}>
      <fieldset>
        <legend>The tournament</legend>
        <label for="t-name">Name <input id="t-name" data-testid="t-name" required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} /></label>
        <label for="t-game">Game <select id="t-game" data-testid="t-game" value={gameType} onChange={(e) => setGameType(e.currentTarget.value)}>
          {entries.map((e) => <option value={e.type}>{e.title} ({e.players.min}–{e.players.max} players)</option>)}
        </select></label>
      </fieldset>
      <fieldset>
        <legend>Format</legend>
        <label for="t-kind">Kind <select id="t-kind" data-testid="t-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as keyof typeof kinds)}>
          {Object.entries(kinds).map(([k, words]) => <option value={k}>{words}</option>)}
        </select></label>
        {kind === 'knockout' ? number('t-advance-by', 'Players going on from each table', advanceBy, setAdvanceBy) : number('t-rounds', 'Rounds', rounds, setRounds)}
        {number('t-min', 'Smallest table', min, setMin)}
        {number('t-max', 'Largest table', max, setMax)}
        <label for="t-byes"><input id="t-byes" data-testid="t-byes" type="checkbox" checked={byes} onChange={(e) => setByes(e.currentTarget.checked)} /> Byes: when no mix of tables seats everyone, the fewest players sit the round out</label>
      </fieldset>
      <fieldset>
        <legend>Running it</legend>
        <label for="t-advance">Next round <select id="t-advance" data-testid="t-advance" value={advance} onChange={(e) => setAdvance(e.currentTarget.value as 'auto' | 'organizer')}>
          <option value="auto">paired by the server as soon as a round is over</option>
          <option value="organizer">paired when I say so</option>
        </select></label>
        <label for="t-no-show">A player who has not opened their table <input id="t-no-show" data-testid="t-no-show" type="number" min={1} placeholder="never" value={noShow} onInput={(e) => setNoShow(e.currentTarget.value === '' ? '' : Number(e.currentTarget.value))} /> seconds after the pairing, when their turn comes,</label>
        <label for="t-no-show-action">is <select id="t-no-show-action" data-testid="t-no-show-action" value={noShowAction} onChange={(e) => setNoShowAction(e.currentTarget.value as 'bot' | 'forfeit')}>
          <option value="forfeit">replaced by a bot and ranked last at the table</option>
          <option value="bot">replaced by a bot who plays on for them</option>
        </select></label>
        {number('t-absent-after', 'Left out of later rounds after this many no-shows (0: never)', absentAfter, setAbsentAfter)}
      </fieldset>
      {entry && Object.keys(optionProperties(entry.options)).length ? (
        <fieldset>
          <legend>Game options (the same at every table)</legend>
          {Object.entries(optionProperties(entry.options)).map(([option, schema]) => (
            <span>
              <OptionField name={option} schema={schema} value={options[option] ?? schema.default} set={(v) => setOptions({ ...options, [option]: v })} />
              {schema.description ? <span class="hint"> {schema.description}</span> : null}
            </span>
          ))}
        </fieldset>
      ) : null}
      <button type="submit" data-testid="t-create">Create the tournament</button>
      {problem ? <p role="alert" class="refusal" data-testid="problem">{problem}</p> : null}
    </form>
  );
}

export function ConsolePage({ id }: { id: string | null }) {
  const [key, setKey] = useState(() => secrets.key());
  const entries = useCatalog();
  const [list, setList] = useState<Awaited<ReturnType<OrganizerApi['list']>> | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const api = key === null ? null : organizerApi(key);
  useEffect(() => {
    if (api === null || id !== null) return;
    api.list().then(setList, (e) => setProblem(problemText(e)));
  }, [key, id]);
  const forget = () => {
    secrets.forgetKey();
    setKey(null);
  };
  if (api === null) {
    return (
      <Page title="Organizer console">
        <KeyForm done={(k) => (secrets.keepKey(k), setKey(k))} />
      </Page>
    );
  }
  const forgetButton = <button type="button" data-testid="forget-key" onClick={forget}>Forget my key</button>;
  if (id !== null) return <TournamentConsole api={api} id={id} forget={forgetButton} />;
  return (
    <Page title="Organizer console">
      <p class="controls">{forgetButton}</p>
      {problem ? <p role="alert" class="refusal" data-testid="problem">{problem}</p> : null}
      <section aria-labelledby="mine-title">
        <h2 id="mine-title">Your tournaments</h2>
        {list === null ? <p>Loading…</p> : list.length === 0 ? <p>None yet.</p> : (
          <ul data-testid="tournaments">
            {list.map((t) => <li><a href={`/organize/${t.id}`}>{t.name}</a> <span class={`badge ${t.status}`}>{t.status}</span></li>)}
          </ul>
        )}
      </section>
      <section aria-labelledby="create-title">
        <h2 id="create-title">New tournament</h2>
        {entries ? <CreateTournament api={api} entries={entries} created={(created) => location.assign(`/organize/${created}`)} /> : <p>Loading…</p>}
      </section>
    </Page>
  );
}
