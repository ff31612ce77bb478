// A listening test app and SDK clients connected to its /mcp over Streamable HTTP.
import type { Test } from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { testApp } from '../helpers/app.ts';

export async function listening(t: Test) {
  const app = await testApp(t, { mcp: { pollMs: 5 } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return { app, url: new URL(`http://127.0.0.1:${port}/mcp`) };
}

export async function agent(t: Test, url: URL, token?: string): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(url, token === undefined ? {} : { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  t.teardown(() => client.close());
  return client;
}
