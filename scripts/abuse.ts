// npm run abuse -- [--url http://localhost:3000] [--seconds 5] [--slow-seconds 12] [--paused-seconds 60] [--cases a,b]
//
// Reproduces issue 12's abuse cases against a running server, each bounded in time,
// and prints one JSON object of figures, comparable between two servers (e.g. before
// and after a change) run on the same machine:
// - malformed: requests that gave 500 in the issue (NUL characters, bad cursors, bad
//   percent-encoding, an over-long id, a live route without Upgrade): statuses seen,
//   and how many were 5xx or not problem+json;
// - creationFlood: POST /games as fast as 20 connections allow for --seconds: how many
//   were accepted (201) and refused (429), and a well-behaved client's command latency
//   meanwhile (p50/p99), against its latency before the flood;
// - refusedUpgrade: whether the connection of a refused upgrade is closed by the server;
// - nonReading: 8 sockets (as the referee, whose updates are the largest) that stop
//   reading on a Porca Miseria table this script plays as fast as it can for
//   --paused-seconds, one update per command (the kernel holds the first few MB of
//   each socket's pushes, so it takes many): the server's RSS before, at most and at
//   the end (from /metrics), what each socket got before its close, how many were
//   closed and with which code, and how many of the closed ones got every event once,
//   in order, after a reconnect with after=N;
// - messageFlood: one seat's socket sends 50,000 commands as fast as it can (3 s at
//   most): the answers it got by code (those of commands still being handled when
//   the server closes the socket are not sent), its close code, and another client's
//   HTTP command latency before and during;
// - slowloris: 300 connections that send a header line every second and never finish:
//   how many the server still holds after --slow-seconds, and what the cut ones got;
// - upgradeElsewhere: an upgrade request on /games and /health: the status (101 means
//   upgraded, then closed);
// - binaryFrame: a binary frame on a live socket: the close code (none: it was parsed
//   as a command).
// --cases runs only the named ones (default: all, in the order above).
// The machine's CPU is shared with the server and Postgres: compare runs on one machine.
import { once } from 'node:events';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { fetchJson, jsonRequest, liveUrl, parseOptions, roundedPercentiles } from './lib.ts';

const options = parseOptions(import.meta.url, {
  url: { type: 'string', default: 'http://localhost:3000' },
  seconds: { type: 'string', default: '5' },
  'slow-seconds': { type: 'string', default: '12' },
  'paused-seconds': { type: 'string', default: '60' },
  cases: { type: 'string' },
});
const base = new URL(options.url!);
const seconds = Number(options.seconds);
const slowSeconds = Number(options['slow-seconds']);
const pausedSeconds = Number(options['paused-seconds']);

async function malformed() {
  const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const cases: [string, RequestInit][] = [
    ['/games?type=%00', {}],
    [`/games?cursor=${cursor(['2026-11-29T12:00:00.000Z', 'x'])}`, {}],
    [`/games?cursor=${cursor([new Date(-8.64e15).toISOString(), '00000000-0000-4000-8000-000000000000'])}`, {}],
    ['/games', jsonRequest('POST', { type: 'pechvogel', seats: [{ name: 'A\u0000' }, {}] })],
    ['/games', jsonRequest('POST', { type: 'pechvogel', seats: [{}, {}], seed: '\u0000' })],
    ['/games/%FF', {}],
    [`/games/${'a'.repeat(150)}`, {}],
    ['/games/00000000-0000-4000-8000-000000000000/live', {}],
  ];
  const statuses: Record<string, number> = {};
  let serverErrors = 0;
  let notProblems = 0;
  for (const [i, [path, init]] of cases.entries()) {
    const response = await fetch(new URL(path, base), init);
    await response.arrayBuffer();
    statuses[`${i + 1}. ${init.method ?? 'GET'} ${path.slice(0, 40)}`] = response.status;
    if (response.status >= 500) serverErrors++;
    if (response.status >= 400 && !response.headers.get('content-type')?.startsWith('application/problem+json')) notProblems++;
  }
  return { requests: cases.length, serverErrors, notProblems, statuses };
}

async function commandLatencies(game: { id: string; tokens: string[] }, until: number): Promise<number[]> {
  const samples: number[] = [];
  while (Date.now() < until) {
    const started = performance.now();
    // A command the rules refuse: measures the whole path without ending the game.
    await fetchJson(base, 'POST', `/games/${game.id}/commands`, { command: { type: 'throw' } }, game.tokens[1]);
    samples.push(performance.now() - started);
    await sleep(20);
  }
  return samples;
}

async function creationFlood() {
  const created = await fetchJson(base, 'POST', '/games', { type: 'pechvogel', seats: [{}, {}] });
  const game = { id: created.json.game.id as string, tokens: (created.json.seats as { token: string }[]).map((s) => s.token) };
  const quiet = await commandLatencies(game, Date.now() + 1000);
  const until = Date.now() + seconds * 1000;
  const counts: Record<number, number> = {};
  const flooder = async () => {
    while (Date.now() < until) {
      const response = await fetch(new URL('/games', base), jsonRequest('POST', { type: 'pechvogel', seats: [{}, {}] }));
      await response.arrayBuffer();
      counts[response.status] = (counts[response.status] ?? 0) + 1;
    }
  };
  const [during] = await Promise.all([commandLatencies(game, until), ...Array.from({ length: 20 }, flooder)]);
  return { seconds, statuses: counts, wellBehavedMs: { before: roundedPercentiles(quiet, 1), during: roundedPercentiles(during, 1) } };
}

/** Sends `request` on a new connection; the answer's status line and whether the
 * server closed the connection within `ms`. */
async function rawExchange(request: string | Buffer, ms = 3000) {
  const socket = net.connect(Number(base.port || 80), base.hostname);
  await once(socket, 'connect');
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
  socket.on('error', () => {});
  socket.write(request);
  const closed = await Promise.race([once(socket, 'close').then(() => true), sleep(ms).then(() => false)]);
  socket.destroy();
  return { status: Number(/^HTTP\/1.1 (\d+)/.exec(answer)?.[1] ?? 0), code: /"code":"([^"]+)"/.exec(answer)?.[1] ?? null, closedByServer: closed };
}

const upgradeHeaders = 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n';

async function refusedUpgrade() {
  const { status, closedByServer } = await rawExchange(`GET /games/%FF/live HTTP/1.1\r\nHost: x\r\n${upgradeHeaders}`);
  return { status, closedByServerWithin3s: closedByServer };
}

async function upgradeElsewhere() {
  const answers: Record<string, unknown> = {};
  for (const path of ['/games', '/health']) answers[path] = await rawExchange(`GET ${path} HTTP/1.1\r\nHost: x\r\n${upgradeHeaders}`);
  return answers;
}

/** Resolves once the socket is open, rejects if it fails first. */
function opened(socket: WebSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
}

/** The server's resident memory in MiB, from its Prometheus metrics. */
async function serverRssMib(): Promise<number | null> {
  const text = await (await fetch(new URL('/metrics', base))).text();
  const bytes = /^spielwerk_process_resident_memory_bytes (\S+)$/m.exec(text)?.[1];
  return bytes === undefined ? null : Math.round(Number(bytes) / 1024 / 102.4) / 10;
}

interface Watching {
  socket: WebSocket;
  seqs: number[];
  version: number;
  bytes: number;
  closed: Promise<number>;
}

function watch(url: URL): Watching {
  const socket = new WebSocket(url, { perMessageDeflate: false });
  const watching: Watching = { socket, seqs: [], version: 0, bytes: 0, closed: new Promise((resolve) => socket.once('close', resolve)) };
  socket.on('error', () => {});
  socket.on('message', (raw: Buffer) => {
    watching.bytes += raw.length;
    const message = JSON.parse(raw.toString()) as { type: string; version: number; events?: { seq: number }[] };
    if (message.type !== 'update') return;
    watching.seqs.push(...(message.events ?? []).map((e) => e.seq));
    watching.version = message.version;
  });
  return watching;
}

/** Plays a Porca Miseria table as fast as one client can, the same way on every
 * server: the starting player reveals, then every seat passes (the legal command
 * otherwise), one command at a time, each its own update, until `until`. */
async function playTable(id: string, tokens: readonly string[], until: number): Promise<number> {
  let commands = 0;
  let game = (await fetchJson(base, 'GET', `/games/${id}`)).json;
  while (Date.now() < until && game.status === 'running') {
    const seats = game.pending.seats as number[];
    if (seats.length === 0) await sleep(20);
    for (const seat of seats) {
      const guess = seats.length === 1 ? { type: 'reveal' } : { type: 'pass' };
      let answer = await fetchJson(base, 'POST', `/games/${id}/commands`, { command: guess }, tokens[seat]);
      if (answer.status === 422) {
        const [legal] = (await fetchJson(base, 'GET', `/games/${id}`, undefined, tokens[seat])).json.legalCommands ?? [];
        if (legal !== undefined) answer = await fetchJson(base, 'POST', `/games/${id}/commands`, { command: legal }, tokens[seat]);
      }
      if (answer.status === 200) commands++;
    }
    game = (await fetchJson(base, 'GET', `/games/${id}`)).json;
  }
  return commands;
}

async function nonReading() {
  const seats = [{}, {}, {}, {}];
  const created = await fetchJson(base, 'POST', '/games', { type: 'porca-miseria', seats, options: { maxActions: 10_000 } });
  if (created.status !== 201) return { error: created.json };
  const id = created.json.game.id as string;
  const referee = created.json.refereeToken as string;
  const tokens = (created.json.seats as { token: string }[]).map((s) => s.token);
  const rssBefore = await serverRssMib();
  const watchers = Array.from({ length: 8 }, () => watch(liveUrl(base, id, referee)));
  await Promise.all(watchers.map((w) => opened(w.socket)));
  await sleep(200);
  for (const w of watchers) w.socket.pause();
  let rssMost = rssBefore ?? 0;
  const until = Date.now() + pausedSeconds * 1000;
  const sampling = (async () => {
    while (Date.now() < until) {
      await sleep(500);
      rssMost = Math.max(rssMost, (await serverRssMib()) ?? 0);
    }
  })();
  const [commands] = await Promise.all([playTable(id, tokens, until), sampling]);
  const rssPaused = await serverRssMib();
  // Read again: what was buffered arrives, then the close if the server closed it.
  for (const w of watchers) w.socket.resume();
  const closes = await Promise.all(watchers.map((w) => Promise.race([w.closed, sleep(5000).then(() => null)])));
  const version = (await fetchJson(base, 'GET', `/games/${id}`)).json.version as number;
  // Each closed one reconnects with after=N and must get exactly the rest.
  let complete = 0;
  await Promise.all(
    watchers.map(async (w, i) => {
      if (closes[i] === null) return;
      const url = liveUrl(base, id, referee);
      url.searchParams.set('after', String(w.version));
      const rest = watch(url);
      const deadline = Date.now() + 15_000;
      while (rest.version < version && Date.now() < deadline) await sleep(50);
      rest.socket.close();
      const seqs = [...w.seqs, ...rest.seqs];
      if (seqs.every((seq, k) => seq === k + 1) && seqs.length >= version) complete++;
    }),
  );
  for (const w of watchers) w.socket.terminate();
  const codes: Record<string, number> = {};
  for (const code of closes) codes[String(code ?? 'open')] = (codes[String(code ?? 'open')] ?? 0) + 1;
  return {
    seconds: pausedSeconds,
    sockets: watchers.length,
    commands,
    events: version,
    mibSentPerSocketBeforeClose: roundedPercentiles(watchers.map((w) => w.bytes / 1024 / 1024), 1),
    serverRssMib: { before: rssBefore, most: rssMost, paused: rssPaused },
    closeCodes: codes,
    closedThenCompleteAfterReconnect: complete,
  };
}

async function messageFlood() {
  const created = await fetchJson(base, 'POST', '/games', { type: 'pechvogel', seats: [{}, {}, {}] });
  const game = { id: created.json.game.id as string, tokens: (created.json.seats as { token: string }[]).map((s) => s.token) };
  const other = await fetchJson(base, 'POST', '/games', { type: 'pechvogel', seats: [{}, {}] });
  const wellBehaved = { id: other.json.game.id as string, tokens: (other.json.seats as { token: string }[]).map((s) => s.token) };
  const quiet = await commandLatencies(wellBehaved, Date.now() + 1000);
  const socket = new WebSocket(liveUrl(base, game.id, game.tokens[2]), { perMessageDeflate: false });
  const answers: Record<string, number> = {};
  socket.on('error', () => {});
  socket.on('message', (raw) => {
    const message = JSON.parse(raw.toString()) as { type: string; problem?: { code: string } };
    const key = message.type === 'error' ? message.problem!.code : message.type;
    answers[key] = (answers[key] ?? 0) + 1;
  });
  const closed = new Promise<number>((resolve) => socket.once('close', resolve));
  await opened(socket);
  const until = Date.now() + 3000;
  const flooding = (async () => {
    let sent = 0;
    // A command the rules refuse (not this seat's turn): the whole path, nothing written.
    const message = JSON.stringify({ type: 'command', command: { type: 'throw' } });
    while (sent < 50_000 && Date.now() < until && socket.readyState === socket.OPEN) {
      for (let i = 0; i < 500 && sent < 50_000; i++, sent++) socket.send(message);
      await new Promise((resolve) => setImmediate(resolve));
    }
    return sent;
  })();
  const [during, sent] = await Promise.all([commandLatencies(wellBehaved, until + 1000), flooding]);
  const closeCode = await Promise.race([closed, sleep(2000).then(() => null)]);
  socket.terminate();
  return { sent, answers, closeCode, wellBehavedMs: { before: roundedPercentiles(quiet, 1), during: roundedPercentiles(during, 1) } };
}

async function slowloris() {
  const count = 300;
  const connections = await Promise.all(
    Array.from({ length: count }, async () => {
      const socket = net.connect(Number(base.port || 80), base.hostname);
      socket.on('error', () => {});
      await once(socket, 'connect').catch(() => undefined);
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      const state = { socket, closedAt: null as number | null, status: () => Number(/^HTTP\/1.1 (\d+)/.exec(answer)?.[1] ?? 0) };
      socket.once('close', () => (state.closedAt = Date.now()));
      socket.write('GET /health HTTP/1.1\r\nHost: x\r\n');
      return state;
    }),
  );
  const started = Date.now();
  const drip = setInterval(() => {
    for (const { socket } of connections) if (!socket.destroyed) socket.write(`X-Slow: ${Date.now()}\r\n`);
  }, 1000);
  await sleep(slowSeconds * 1000);
  clearInterval(drip);
  const cut = connections.filter((c) => c.closedAt !== null);
  const statuses: Record<string, number> = {};
  for (const c of cut) statuses[c.status()] = (statuses[c.status()] ?? 0) + 1;
  const lifetimes = cut.map((c) => c.closedAt! - started);
  for (const { socket } of connections) socket.destroy();
  return { connections: count, afterSeconds: slowSeconds, heldOpen: count - cut.length, cut: cut.length, cutStatuses: statuses, cutAfterMs: roundedPercentiles(lifetimes, 0) };
}

async function binaryFrame() {
  const created = await fetchJson(base, 'POST', '/games', { type: 'pechvogel', seats: [{}, {}] });
  const socket = new WebSocket(liveUrl(base, created.json.game.id, created.json.seats[0].token), { perMessageDeflate: false });
  const messages: string[] = [];
  socket.on('message', (raw) => messages.push(JSON.parse(raw.toString()).type));
  socket.on('error', () => {});
  const closed = new Promise<number>((resolve) => socket.once('close', resolve));
  await opened(socket);
  await sleep(100);
  socket.send(Buffer.from(JSON.stringify({ type: 'command', id: 'b1', command: { type: 'throw' } })), { binary: true });
  const closeCode = await Promise.race([closed, sleep(2000).then(() => null)]);
  socket.terminate();
  return { closeCode, answeredAs: messages.slice(1) };
}

/** Waits (30 s at most) until the server answers quickly again: a case must not
 * measure the backlog the previous one left. */
async function settled(): Promise<void> {
  const until = Date.now() + 30_000;
  for (let quick = 0; quick < 3 && Date.now() < until; ) {
    const started = performance.now();
    await (await fetch(new URL('/health', base))).arrayBuffer();
    quick = performance.now() - started < 20 ? quick + 1 : 0;
    await sleep(200);
  }
}

const figures: Record<string, unknown> = { url: base.origin };
const cases = { malformed, refusedUpgrade, upgradeElsewhere, binaryFrame, nonReading, slowloris, messageFlood, creationFlood };
const chosen = options.cases?.split(',') ?? Object.keys(cases);
for (const [name, run] of Object.entries(cases).filter(([name]) => chosen.includes(name))) {
  await settled();
  figures[name] = await run().catch((error: unknown) => ({ error: String(error) }));
}
console.log(JSON.stringify(figures, null, 2));
