// `npm run mcp`: the MCP server over stdio, for an agent host to start as a command. It
// talks to the Spielwerk instance at SPIELWERK_URL (default http://localhost:3000) with
// SPIELWERK_TOKEN (a seat token or organizer key) as its identity; if nothing answers at
// the default address it starts the embedded service the way `npm start` does. Stdout
// belongs to the protocol: every log line goes to stderr.
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { httpApi } from '../src/mcp/api.ts';
import { createMcpServer } from '../src/mcp/tools.ts';

const defaultUrl = 'http://localhost:3000';
const url = process.env.SPIELWERK_URL || defaultUrl;

const answers = async () => fetch(new URL('/health', url)).then(() => true, () => false);

if (!(await answers())) {
  if (url !== defaultUrl) process.stderr.write(`spielwerk mcp: nothing answers at ${url} yet; tools answer mcp/service-unreachable until it does\n`);
  else {
    process.stderr.write('spielwerk mcp: nothing answers at http://localhost:3000, starting the service (npm start)\n');
    // Its output would corrupt the protocol on stdout: it goes to stderr.
    const service = spawn('npm', ['start'], { stdio: ['ignore', process.stderr, process.stderr] });
    process.on('exit', () => service.kill('SIGTERM'));
    for (let i = 0; i < 600 && !(await answers()); i++) await sleep(100);
  }
}

const server = createMcpServer({
  api: httpApi(url),
  token: process.env.SPIELWERK_TOKEN || undefined,
  // How often wait_for_turn and subscriptions ask the service for a new version.
  pollMs: Number(process.env.MCP_POLL_MS || 100),
  log: (line) => process.stderr.write(`${JSON.stringify({ mcp: line })}\n`),
});
await server.connect(new StdioServerTransport());
