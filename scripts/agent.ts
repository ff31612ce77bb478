// An example agent that plays through MCP alone: it creates a game against the
// server's bots (or plays the game SPIELWERK_GAME with SPIELWERK_TOKEN), then waits for
// its turn and sends the first legal command until the game is over. Over stdio it
// starts `npm run mcp` itself; with SPIELWERK_MCP_URL it talks Streamable HTTP.
//   npm run agent -- [gameType]        (default pechvogel)
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { problemCode } from '../src/mcp/tools.ts';

interface SeatView {
  version: number;
  status: string;
  yourTurn: boolean;
  legalCommands: { id: number; command: unknown }[];
  result: unknown;
}

/** Calls a tool; a tool error is thrown with its problem code. */
export async function call<T>(client: Client, name: string, args: Record<string, unknown>): Promise<T> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw Object.assign(new Error(`${name}: ${JSON.stringify(result.content)}`), { code: problemCode(result) });
  return result.structuredContent as T;
}

/** Plays this session's seat of `gameId` to the end with the first legal command; answers the last view and the moves made. */
export async function playToEnd(client: Client, gameId: string, onView?: (view: SeatView) => void): Promise<{ view: SeatView; moves: number }> {
  let moves = 0;
  for (;;) {
    const view = await call<SeatView>(client, 'wait_for_turn', { gameId, timeoutSeconds: 30 });
    onView?.(view);
    if (view.status === 'finished') return { view, moves };
    if (!view.yourTurn) continue;
    try {
      await call(client, 'act', { gameId, commandId: view.legalCommands[0]!.id, expectedVersion: view.version });
      moves++;
    } catch (error) {
      // Another seat (a racing agent, a bot, the clock) moved first, or ended the game: look again.
      if (!['command/stale-version', 'game/not-running'].includes((error as { code?: string }).code ?? '')) throw error;
    }
  }
}

async function main(): Promise<void> {
  const gameType = process.argv[2] ?? 'pechvogel';
  const client = new Client({ name: 'spielwerk-example-agent', version: '0.1.0' });
  const url = process.env.SPIELWERK_MCP_URL;
  const token = process.env.SPIELWERK_TOKEN;
  await client.connect(
    url === undefined
      ? new StdioClientTransport({ command: 'npx', args: ['tsx', 'scripts/mcp.ts'], env: { ...process.env } as Record<string, string>, stderr: 'inherit' })
      : new StreamableHTTPClientTransport(new URL(url), token === undefined ? {} : { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  let gameId = process.env.SPIELWERK_GAME;
  if (gameId === undefined) {
    const catalog = await call<{ games: { type: string; players: { min: number } }[] }>(client, 'list_games_catalog', {});
    const entry = catalog.games.find((g) => g.type === gameType);
    if (entry === undefined) throw new Error(`no game type ${gameType}`);
    const bots = Array.from({ length: Math.max(1, entry.players.min - 1) }, () => ({ bot: 'greedy' }));
    gameId = (await call<{ gameId: string }>(client, 'create_game', { gameType, seats: [{ name: 'agent' }, ...bots], botThinkMs: 0 })).gameId;
    console.log(`created ${gameType} game ${gameId}`);
  }
  const { view, moves } = await playToEnd(client, gameId);
  console.log(JSON.stringify({ gameId, moves, result: view.result }));
  await client.close();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
