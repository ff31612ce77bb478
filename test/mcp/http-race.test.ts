// /mcp over Streamable HTTP: two agents racing at Porca Miseria, and bad input answered
// with a stable problem code that changes nothing.
import t from 'tap';
import { call, playToEnd } from '../../scripts/agent.ts';
import { problemCode } from '../../src/mcp/tools.ts';
import { agent, listening } from './session.ts';

t.test('two agents race at Porca Miseria', async (t) => {
  const { url } = await listening(t);
  const host = await agent(t, url);
  const created = await call<{ gameId: string }>(host, 'create_game', { gameType: 'porca-miseria', seats: [{ name: 'host' }, { open: true }, { bot: 'greedy' }], seed: 'race' });
  const guest = await agent(t, url);
  const open = await call<{ games: { id: string }[] }>(guest, 'list_open_tables', { gameType: 'porca-miseria' });
  t.ok(open.games.some((g) => g.id === created.gameId), 'the table is listed as open');
  await call(guest, 'join_seat', { gameId: created.gameId, name: 'guest' });
  const [a, b] = await Promise.all([playToEnd(host, created.gameId), playToEnd(guest, created.gameId)]);
  t.equal(a.view.status, 'finished');
  t.equal(b.view.version, a.view.version, 'both see the same final version');
});

t.test('bad input is a tool error with a stable code and changes nothing', async (t) => {
  const { url } = await listening(t);
  const owner = await agent(t, url);
  const created = await call<{ gameId: string; seats: { seat: number; token: string | null }[] }>(owner, 'create_game', { gameType: 'pechvogel', seats: [{ name: 'a' }, { name: 'b' }, { name: 'c' }], seed: 'bad' });
  const { gameId } = created;
  const before = await call<{ version: number; legalCommands: unknown[] }>(owner, 'get_view', { gameId });

  t.equal(problemCode(await owner.callTool({ name: 'no_such_tool', arguments: {} })), 'mcp/unknown-tool');
  t.equal(problemCode(await owner.callTool({ name: 'act', arguments: { gameId: 'not-a-uuid', commandId: 0 } })), 'request/invalid');
  t.equal(problemCode(await owner.callTool({ name: 'act', arguments: { gameId, commandId: 0, expectedVersion: before.version + 5 } })), 'command/stale-version');
  t.equal(problemCode(await owner.callTool({ name: 'act', arguments: { gameId, commandId: 99, expectedVersion: before.version } })), 'command/invalid');

  const spectator = await agent(t, url);
  t.equal(problemCode(await spectator.callTool({ name: 'act', arguments: { gameId, command: { type: 'roll' } } })), 'auth/token-required', 'no token: spectator only');
  const other = await call<{ gameId: string; seats: { token: string | null }[] }>(spectator, 'create_game', { gameType: 'pechvogel', seats: [{ name: 'x' }, { name: 'y' }, { name: 'z' }] });
  const foreign = await agent(t, url, other.seats[0]!.token!);
  const refused = await foreign.callTool({ name: 'act', arguments: { gameId, command: { type: 'roll' } } });
  t.ok(refused.isError, 'a token of another game cannot act here');
  t.match(problemCode(refused), /^auth\//);

  const after = await call<{ version: number }>(owner, 'get_view', { gameId });
  t.equal(after.version, before.version, 'nothing changed');
  const missing = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': 'nope' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
  t.equal(missing.status, 404);
  t.equal(((await missing.json()) as { code: string }).code, 'mcp/session-not-found');
});

t.test("create_game passes the bots' think time on; one out of range is refused and creates nothing", async (t) => {
  const { app, url } = await listening(t);
  const host = await agent(t, url);
  const seats = [{ name: 'agent' }, { bot: 'greedy' }];
  const created = await call<{ game: { botThinkMs: number | null } }>(host, 'create_game', { gameType: 'pechvogel', seats, botThinkMs: 0 });
  t.equal(created.game.botThinkMs, 0, 'the game keeps the think time the agent asked for');
  const unset = await call<{ game: { botThinkMs: number | null } }>(host, 'create_game', { gameType: 'pechvogel', seats });
  t.equal(unset.game.botThinkMs, null, "none asked for: the server's");
  t.equal(problemCode(await host.callTool({ name: 'create_game', arguments: { gameType: 'pechvogel', seats, botThinkMs: 10_001 } })), 'request/invalid');
  t.equal((await app.inject({ url: '/games' })).json().games.length, 2, 'no third game');
});
