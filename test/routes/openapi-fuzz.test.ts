// Every operation of the committed OpenAPI document, sent malformed requests that
// fast-check generates from it (path, query, headers and body each valid, absent or
// garbage): the answer is never a 5xx, every refusal is a problem document with a
// code, and a refused request writes nothing.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import t from 'tap';
import { createGame, testApp } from '../helpers/app.ts';
import { testDatabase } from '../helpers/database.ts';

interface Operation {
  readonly method: string;
  readonly path: string;
  readonly parameters: readonly { in: 'path' | 'query' | 'header'; name: string }[];
  readonly bodyKeys: readonly string[] | null;
}

const document = JSON.parse(readFileSync(new URL('../../openapi/openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, { parameters?: Operation['parameters']; requestBody?: { content: Record<string, { schema: { properties?: object; $ref?: string } }> } }>>;
  components: { schemas: Record<string, { properties?: object }> };
};
const keysOf = (schema: { properties?: object; $ref?: string }): string[] =>
  Object.keys((schema.$ref ? document.components.schemas[schema.$ref.split('/').pop()!] : schema)?.properties ?? {});
const operations: Operation[] = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, op]) => ({
    method: method.toUpperCase(),
    path,
    parameters: op.parameters ?? [],
    bodyKeys: op.requestBody ? keysOf(Object.values(op.requestBody.content)[0]!.schema) : null,
  })),
);

const SEED = Number(process.env.FC_SEED ?? Math.floor(Math.random() * 2 ** 31));

t.test('malformed requests to every documented operation: never a 5xx, always a problem, nothing written', async (t) => {
  t.ok(operations.length >= 10, `${operations.length} operations in the document`);
  const database = await testDatabase(t);
  const app = await testApp(t, { database });
  const game = await createGame(app, { type: 'pechvogel', seats: [{}, {}], seed: 'fuzz' });
  const written = async () =>
    (await database.pool.query<{ n: string }>('SELECT (SELECT count(*) FROM game) + (SELECT count(*) FROM event) + (SELECT count(*) FROM seat) + (SELECT count(*) FROM command_record) AS n')).rows[0]!.n;

  // Mostly values near valid ones and few parameters at once, so that a request gets
  // past its first check to the deeper ones (the database among them); some garbage.
  const text = fc.oneof(
    { arbitrary: fc.constantFrom('\u0000', 'a\u0000'), weight: 1 },
    { arbitrary: fc.constantFrom('', '%', '%zz', '-1', '0', '1', '20', '1e309', 'spectator', 'seat:0', 'seat:99', 'all', 'pechvogel', 'running', game.id), weight: 4 },
    { arbitrary: fc.string(), weight: 1 },
    { arbitrary: fc.string({ unit: 'binary' }), weight: 1 },
  );
  const scalar = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
  const value = fc.oneof(scalar, fc.jsonValue({ maxDepth: 2 }), fc.array(scalar, { maxLength: 3 }));
  const request = (op: Operation) =>
    fc.record({
      path: fc.tuple(...op.parameters.filter((p) => p.in === 'path').map(() => fc.oneof(fc.constant(game.id), fc.uuid(), text).map(encodeURIComponent)), fc.constant(null)),
      query: fc.tuple(...op.parameters.filter((p) => p.in === 'query').map((p) => fc.oneof({ arbitrary: fc.constant(null), weight: 3 }, { arbitrary: text.map((v) => [p.name, v] as const), weight: 1 })), fc.constant(null)),
      rawQuery: fc.oneof({ arbitrary: fc.constant(''), weight: 4 }, { arbitrary: fc.constantFrom('&%', '&a=%FF', '&limit=1&limit=2'), weight: 1 }),
      authorization: fc.option(fc.oneof(fc.constant(`Bearer ${game.tokens[0]}`), fc.constant(`Bearer ${game.referee}`), text.map((v) => `Bearer ${v}`), text), { nil: undefined }),
      idempotencyKey: fc.option(text, { nil: undefined }),
      contentType: fc.option(fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'multipart/form-data'), { nil: undefined }),
      body: op.bodyKeys === null ? fc.constant(undefined) : fc.oneof(value.map((v) => JSON.stringify(v)), fc.dictionary(fc.constantFrom(...op.bodyKeys, 'extra'), value).map((v) => JSON.stringify(v)), fc.string()),
    });

  for (const op of operations) {
    await fc.assert(
      fc.asyncProperty(request(op), async (generated) => {
        let url = op.path;
        for (const [i, param] of op.parameters.filter((p) => p.in === 'path').entries()) url = url.replace(`{${param.name}}`, generated.path[i]!);
        const query = new URLSearchParams(generated.query.filter((q) => q !== null) as [string, string][]).toString();
        url += `?${query}${generated.rawQuery}`;
        const headers: Record<string, string> = {};
        if (generated.authorization !== undefined) headers.authorization = generated.authorization;
        if (generated.idempotencyKey !== undefined && /^[\t\x20-\x7e]*$/.test(generated.idempotencyKey)) headers['idempotency-key'] = generated.idempotencyKey;
        if (generated.contentType !== undefined) headers['content-type'] = generated.contentType;
        const before = await written();
        const response = await app.inject({ method: op.method as 'GET', url, headers, ...(generated.body === undefined ? {} : { payload: generated.body }) }).catch((error: Error) => {
          // Headers Node itself would never send (e.g. a control character) are not requests.
          if (/Invalid character in header content/.test(error.message)) return null;
          throw error;
        });
        if (response === null) return;
        const what = `${op.method} ${url} → ${response.statusCode} ${response.body.slice(0, 200)}`;
        if (response.statusCode >= 500) throw new Error(`a 5xx: ${what}`);
        if (response.statusCode >= 400) {
          if (!/^application\/problem\+json/.test(String(response.headers['content-type']))) throw new Error(`not a problem document: ${what}`);
          if (typeof response.json().code !== 'string') throw new Error(`a problem without a code: ${what}`);
          if ((await written()) !== before) throw new Error(`a refused request wrote something: ${what}`);
        }
      }),
      { numRuns: 150, seed: SEED },
    );
  }
  t.pass(`every operation held (fast-check seed ${SEED})`);
});
