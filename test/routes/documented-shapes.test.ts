// What the server sends is what its documents say: live messages fit the AsyncAPI
// document's schemas and HTTP answers fit the OpenAPI document's, exactly (a field
// the schemas lack fails), for a seat and a spectator of a game with hidden chips.
import { readFile } from 'node:fs/promises';
import { Parser } from '@asyncapi/parser';
import t, { type Test } from 'tap';
import type { z } from 'zod';
import { asyncApiPath, generateAsyncApi } from '../../src/asyncapi.ts';
import { AckMessage, ErrorMessage, UpdateMessage } from '../../src/routes/live-messages.ts';
import { CommandAnswer, EventPage, GameDetails, GameSnapshot } from '../../src/routes/schemas.ts';
import { bearerHeader, command, createGame, testApp } from '../helpers/app.ts';

/** Fits `schema` and parses to itself: nothing missing, nothing more. */
function fits(t: Test, schema: z.ZodType, value: unknown, what: string): void {
  const parsed = schema.safeParse(value);
  if (!parsed.success) return void t.fail(`${what}: ${parsed.error.message.slice(0, 2000)}`);
  t.strictSame(parsed.data, value, `${what} fits its documented schema`, { diagnostic: false });
}

t.test('asyncapi/asyncapi.json is current and valid AsyncAPI 3.0', async (t) => {
  const committed = await readFile(asyncApiPath, 'utf8');
  t.equal(committed, generateAsyncApi(), 'the committed document matches the message schemas (npm run openapi regenerates it)');
  const { document, diagnostics } = await new Parser().parse(committed);
  t.ok(document, 'parses');
  // Severity 0 is an error, 1 a warning; the parser's hints (e.g. "3.1 exists") pass.
  t.same(diagnostics.filter((d) => d.severity < 2).map((d) => `${d.code}: ${d.message} at ${d.path.join('.')}`), [], 'no errors, no warnings');
  t.equal(document?.version(), '3.0.0');
  t.same(document?.channels().all().map((c) => c.address()), ['/games/{id}/live', '/tournaments/{id}/live']);
});

t.test('live messages and HTTP answers fit their documented schemas', async (t) => {
  const app = await testApp(t);
  const { id, tokens } = await createGame(app, { type: 'mistkaefer', seats: [{}, {}], seed: 'shapes' });
  const received: { who: string; message: { type: string } }[] = [];
  const open = async (who: string, headers: object) =>
    app.injectWS(`/games/${id}/live`, { headers } as never, {
      onInit: (ws) => ws.on('message', (raw) => received.push({ who, message: JSON.parse(raw.toString()) })),
    });
  const seat0 = await open('seat 0', bearerHeader(tokens[0]));
  await open('spectator', {});
  seat0.send(JSON.stringify({ type: 'command', id: 'wrong', command: { type: 'score' }, expectedVersion: 0 }));
  for (let i = 0; i < 40; i++) {
    const spectator = (await app.inject({ url: `/games/${id}` })).json();
    if (spectator.status !== 'running') break;
    const seat = spectator.pending.seats[0] as number;
    const details = (await app.inject({ url: `/games/${id}`, headers: bearerHeader(tokens[seat]) })).json();
    fits(t, GameDetails, details, `GET /games/{id} as seat ${seat}`);
    if (seat === 0) {
      seat0.send(JSON.stringify({ type: 'command', id: `c${i}`, command: details.legalCommands[0], expectedVersion: details.version }));
      await new Promise((resolve) => setTimeout(resolve, 50));
    } else {
      const answer = await command(app, id, tokens[seat], { command: details.legalCommands[0], expectedVersion: details.version });
      fits(t, CommandAnswer, answer.json(), 'a command answer');
    }
  }
  fits(t, GameSnapshot, (await app.inject({ url: `/games/${id}/view?version=3` })).json(), 'GET /games/{id}/view');
  fits(t, EventPage, (await app.inject({ url: `/games/${id}/events`, headers: bearerHeader(tokens[1]) })).json(), 'GET /games/{id}/events');
  const schemas: Record<string, z.ZodType> = { update: UpdateMessage, ack: AckMessage, error: ErrorMessage };
  for (const { who, message } of received) fits(t, schemas[message.type]!, message, `${who}: ${message.type}`);
  const kinds = new Set(received.map(({ who, message }) => `${who} ${message.type}`));
  for (const kind of ['seat 0 update', 'seat 0 ack', 'seat 0 error', 'spectator update']) t.ok(kinds.has(kind), `saw a ${kind}`);
});
