// An agent seat never sees what another seat hides: every view it is given (tool results,
// the subscribed resource after each notification) is checked, once the game is over,
// against the truth at that version: it must equal the API's view for its own seat (the
// redaction the property battery proves, test/properties), and the views that show
// everything (viewer=all) must differ from it somewhere, so the check could fail.
import { isDeepStrictEqual } from 'node:util';
import t from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { call, playToEnd } from '../../scripts/agent.ts';
import { testApp } from '../helpers/app.ts';

t.test('a Porca Miseria agent sees only its own hand and chips', async (t) => {
  const app = await testApp(t, { mcp: { pollMs: 5 } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const client = new Client({ name: 'hidden', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  t.teardown(() => client.close());

  const seen: { version: number; view: unknown; from: string }[] = [];
  const created = await call<{ gameId: string }>(client, 'create_game', { gameType: 'porca-miseria', seats: [{ name: 'agent' }, { bot: 'greedy' }, { bot: 'random' }], seed: 'hidden' });
  const uri = `spielwerk://games/${created.gameId}/view`;
  let notified = 0;
  const reads: Promise<void>[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => {
    notified++;
    reads.push(
      client.readResource({ uri }).then((r) => {
        const body = JSON.parse((r.contents[0] as { text: string }).text) as { version: number; view: unknown };
        seen.push({ version: body.version, view: body.view, from: 'resource' });
      }),
    );
  });
  await client.subscribeResource({ uri });
  await playToEnd(client, created.gameId, (view) => seen.push({ version: view.version, view: (view as unknown as { view: unknown }).view, from: 'tool' }));
  await Promise.all(reads);
  t.ok(notified > 0, `${notified} notifications`);

  let hidden = 0;
  const at = async (version: number, viewer: string) => (await app.inject({ url: `/games/${created.gameId}/view?version=${version}&viewer=${viewer}` })).json<{ view: unknown }>().view;
  for (const step of seen) {
    const own = await at(step.version, 'seat:0');
    if (!isDeepStrictEqual(step.view, own)) t.fail(`the ${step.from} at version ${step.version} is not seat 0's view`);
    if (!isDeepStrictEqual(await at(step.version, 'all'), own)) hidden++;
  }
  t.ok(seen.length > 10, `${seen.length} views checked`);
  t.ok(hidden > 0, `${hidden} of them hid something that the full truth shows`);
});
