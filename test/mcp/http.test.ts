// The MCP server at /mcp over Streamable HTTP, driven by the SDK's own client against a
// listening app: each game played to the end by one agent seat against bots.
import t from 'tap';
import { call, playToEnd } from '../../scripts/agent.ts';
import { agent, listening } from './session.ts';

const hostile = `<img src=x onerror=alert(1)>"'&`;

t.test('one agent seat plays each game to the end against bots', async (t) => {
  const { url } = await listening(t);
  const client = await agent(t, url);
  const { tools } = await client.listTools();
  t.ok(tools.find((tool) => tool.name === 'resign')?.annotations?.destructiveHint, 'resign is marked destructive');
  t.ok(tools.find((tool) => tool.name === 'get_view')?.outputSchema, 'tools declare their output schema');
  const catalog = await call<{ games: { type: string; players: { min: number } }[] }>(client, 'list_games_catalog', {});
  t.equal(catalog.games.length, 4);
  for (const entry of catalog.games) {
    const bots = Array.from({ length: Math.max(1, entry.players.min - 1) }, () => ({ bot: 'greedy' }));
    const created = await call<{ gameId: string; playing: number }>(client, 'create_game', { gameType: entry.type, seats: [{ name: hostile }, ...bots], seed: `mcp-${entry.type}` });
    t.equal(created.playing, 0, `${entry.type}: the session plays seat 0`);
    const { view, moves } = await playToEnd(client, created.gameId);
    t.equal(view.status, 'finished', `${entry.type} finished after ${moves} agent moves`);
    const replay = await call<{ replay: unknown }>(client, 'get_replay', { gameId: created.gameId });
    t.ok(replay.replay, `${entry.type}: the replay of the finished game`);
  }
});
