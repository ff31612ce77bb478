// GET /metrics: Prometheus text with the requests, commits, pool and sockets of this
// app, counted as they happen.
import { once } from 'node:events';
import type net from 'node:net';
import t from 'tap';
import WebSocket from 'ws';
import { command, createGame, testApp } from '../helpers/app.ts';

const valueOf = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

t.test('/metrics counts requests by route and status, commits by game, and shows the pool and the sockets', async (t) => {
  const app = await testApp(t);
  const { id, tokens } = await createGame(app, { type: 'pechvogel', seats: [{}, {}], seed: 'metrics' });
  const mine = (await app.inject({ url: `/games/${id}`, headers: { authorization: `Bearer ${tokens[0]}` } })).json();
  t.equal((await command(app, id, tokens[0], { command: mine.legalCommands[0], expectedVersion: mine.version })).statusCode, 200);
  t.equal((await command(app, id, tokens[1], { command: { type: 'throw' } })).statusCode, 422);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const socket = new WebSocket(`ws://127.0.0.1:${(app.server.address() as net.AddressInfo).port}/games/${id}/live`);
  await once(socket, 'message');

  const response = await app.inject({ url: '/metrics' });
  t.equal(response.statusCode, 200);
  t.match(response.headers['content-type'], /^text\/plain/);
  const text = response.body;
  t.equal(valueOf(text, 'spielwerk_http_requests_total{route="/games",method="POST",status="201"}'), 1, 'the creation, by route pattern');
  t.equal(valueOf(text, 'spielwerk_http_requests_total{route="/games/:id/commands",method="POST",status="200"}'), 1);
  t.equal(valueOf(text, 'spielwerk_http_requests_total{route="/games/:id/commands",method="POST",status="422"}'), 1, 'and the refusal');
  t.equal(valueOf(text, 'spielwerk_http_request_duration_seconds_count{route="/games/:id/commands",method="POST"}'), 2);
  t.ok((valueOf(text, 'spielwerk_commands_committed_total{game="pechvogel"}') ?? 0) >= 1, 'commits by game (creation and the command)');
  t.ok((valueOf(text, 'spielwerk_events_appended_total{game="pechvogel"}') ?? 0) >= 2);
  t.equal(valueOf(text, 'spielwerk_live_sockets_open'), 1, 'the open socket');
  t.ok((valueOf(text, 'spielwerk_live_messages_sent_total') ?? 0) >= 1, 'its first update');
  t.ok((valueOf(text, 'spielwerk_db_pool_connections') ?? -1) >= 1, 'pool connections');
  t.ok(valueOf(text, 'spielwerk_nodejs_eventloop_lag_seconds') !== undefined, 'event-loop lag');
  socket.close();
});
