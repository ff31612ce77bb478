// GET /metrics: Prometheus text with the requests, commits, pool and sockets of this
// app, counted as they happen.
import { once } from 'node:events';
import t from 'tap';
import WebSocket from 'ws';
import { bearerHeader, command, createGame, listeningPort, testApp, testClock } from '../helpers/app.ts';
import { testDatabase } from '../helpers/database.ts';
import { connect } from '../helpers/ws.ts';
import { onCitus } from '../helpers/citus.ts';

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
  const port = await listeningPort(app);
  const socket = new WebSocket(`ws://127.0.0.1:${port}/games/${id}/live`);
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

t.test('/metrics measures appends and their batches, deadlines fired, bots\' commands and the push delay across instances', async (t) => {
  const clock = testClock(Date.now());
  const database = await testDatabase(t);
  const app = await testApp(t, { clock, database });
  const other = await testApp(t, { database });

  // Appends, each a statement of its own, then three games' appends in one statement.
  const games = await Promise.all([0, 1, 2].map((n) => createGame(app, { type: 'pechvogel', seats: [{}, {}], seed: `batched-${n}` })));
  const watcher = await connect(other, `/games/${games[0]!.id}/live`);
  await watcher.next();
  const moves = await Promise.all(games.map(async ({ id, tokens }) => (await app.inject({ url: `/games/${id}`, headers: bearerHeader(tokens[0]) })).json()));
  await Promise.all(games.map(({ id, tokens }, i) => command(app, id, tokens[0], { command: moves[i].legalCommands[0], expectedVersion: moves[i].version })));
  await watcher.next();

  // A deadline: throws until a reaction window opens, then the clock passes it.
  const { id, tokens } = games[1]!;
  for (let i = 0; i < 20 && (await app.inject({ url: `/games/${id}` })).json().pending.deadline === undefined; i++) {
    const seat = (await app.inject({ url: `/games/${id}`, headers: bearerHeader(tokens[0]) })).json().legalCommands.length > 0 ? 0 : 1;
    const legal = (await app.inject({ url: `/games/${id}`, headers: bearerHeader(tokens[seat]) })).json().legalCommands;
    await command(app, id, tokens[seat], { command: legal[0] });
  }
  const { pending } = (await app.inject({ url: `/games/${id}` })).json();
  t.type(pending.deadline, 'number', 'a reaction window with a deadline');
  clock.now = pending.deadline + 1;
  await app.services.scheduler.runDue();

  // A table of bots plays on its own.
  const bots = await createGame(app, { type: 'pechvogel', seats: [{ bot: 'random' }, { bot: 'random' }], seed: 'bot-metrics' });
  for (let i = 0; i < 100 && (await app.inject({ url: `/games/${bots.id}` })).json().version < 4; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  await app.services.bots.stop();

  const text = (await app.inject({ url: '/metrics' })).body;
  t.ok((valueOf(text, 'spielwerk_append_duration_seconds_count') ?? 0) >= 4, 'every append\'s latency');
  t.ok((valueOf(text, 'spielwerk_append_duration_seconds_bucket{le="+Inf"}') ?? 0) >= 4);
  t.ok((valueOf(text, 'spielwerk_append_batch_size_count') ?? 0) >= 2, 'the statements');
  t.ok((valueOf(text, 'spielwerk_append_batch_size_sum') ?? 0) > (valueOf(text, 'spielwerk_append_batch_size_count') ?? 0), 'one of which carried several appends', {
    skip: onCitus() && "on Citus a statement carries one game's appends (docs/scaling.md)",
  });
  t.equal(valueOf(text, 'spielwerk_deadlines_fired_total{game="pechvogel",outcome="committed"}'), 1, 'the deadline, by game and outcome');
  t.ok((valueOf(text, 'spielwerk_bot_commands_total{game="pechvogel",outcome="committed"}') ?? 0) >= 2, 'the bots\' commands, by game and outcome');
  const across = (await other.inject({ url: '/metrics' })).body;
  t.ok((valueOf(across, 'spielwerk_push_delay_seconds_count') ?? 0) >= 1, 'the other instance measured the delay from the commit to its push');
  const delay = valueOf(across, 'spielwerk_push_delay_seconds_sum')! / valueOf(across, 'spielwerk_push_delay_seconds_count')!;
  t.ok(delay >= 0 && delay < 5, `the delay: ${Math.round(delay * 1000)} ms on average`);
  watcher.socket.close();
});
