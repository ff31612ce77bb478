// npm run abuse -- [--url http://localhost:3000] [--seconds 5]
//
// Reproduces issue 12's abuse cases against a running server, each bounded in time,
// and prints one JSON object of figures:
// - malformed: requests that gave 500 in the issue (NUL characters, bad cursors, bad
//   percent-encoding, an over-long id, a live route without Upgrade): statuses seen,
//   and how many were 5xx or not problem+json;
// - creationFlood: POST /games as fast as 20 connections allow for --seconds: how many
//   were accepted (201) and refused (429), and a well-behaved client's command latency
//   meanwhile (p50/p99), against its latency before the flood;
// - refusedUpgrade: whether the connection of a refused upgrade is closed by the server.
// The machine's CPU is shared with the server and Postgres: compare runs on one machine.
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fetchJson, jsonRequest, parseOptions, roundedPercentiles } from './lib.ts';

const options = parseOptions(import.meta.url, { url: { type: 'string', default: 'http://localhost:3000' }, seconds: { type: 'string', default: '5' } });
const base = new URL(options.url!);
const seconds = Number(options.seconds);

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

async function refusedUpgrade() {
  const socket = net.connect(Number(base.port || 80), base.hostname);
  await new Promise((resolve) => socket.once('connect', resolve));
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  socket.on('error', () => {});
  socket.write('GET /games/%FF/live HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n');
  const closed = await Promise.race([new Promise((resolve) => socket.once('close', () => resolve(true))), sleep(3000).then(() => false)]);
  socket.destroy();
  return { status: Number(/^HTTP\/1.1 (\d+)/.exec(answer)?.[1] ?? 0), closedByServerWithin3s: closed };
}

console.log(JSON.stringify({ url: base.origin, malformed: await malformed(), refusedUpgrade: await refusedUpgrade(), creationFlood: await creationFlood() }, null, 2));
