// `npm run mcp` as an agent host starts it: a real child process speaking MCP over stdio,
// pointed at a listening app with SPIELWERK_URL. The example agent plays a game through it.
import t from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { call, playToEnd } from '../../scripts/agent.ts';
import { testApp } from '../helpers/app.ts';

t.test('the stdio server plays a game against a Spielwerk instance', async (t) => {
  const app = await testApp(t);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const client = new Client({ name: 'stdio-test', version: '1' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', 'scripts/mcp.ts'], env: { ...process.env, SPIELWERK_URL: `http://127.0.0.1:${port}`, MCP_POLL_MS: '10' } as Record<string, string>, stderr: 'ignore' }),
  );
  t.teardown(() => client.close());
  const created = await call<{ gameId: string }>(client, 'create_game', { gameType: 'porca-miseria', seats: [{ name: 'agent' }, { bot: 'greedy' }, { bot: 'greedy' }], seed: 'stdio' });
  const { view, moves } = await playToEnd(client, created.gameId);
  t.equal(view.status, 'finished', `finished after ${moves} agent moves`);
  const log = await call<{ events: unknown[] }>(client, 'get_event_log', { gameId: created.gameId });
  t.ok(log.events.length > 0, 'the event log');
});
