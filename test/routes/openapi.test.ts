// The committed OpenAPI document is what the routes generate, and it is valid 3.1.
import { readFile } from 'node:fs/promises';
import { Validator } from '@seriousme/openapi-schema-validator';
import t from 'tap';
import { games } from '../../src/domain/games.ts';
import { generateOpenApi, openApiPath } from '../../src/openapi.ts';

t.test('openapi/openapi.json is current and valid', async (t) => {
  const generated = await generateOpenApi();
  const committed = await readFile(openApiPath, 'utf8');
  t.equal(committed, generated, 'the committed document matches the routes (npm run openapi regenerates it)');

  const document = JSON.parse(generated);
  const result = await new Validator().validate(document);
  t.ok(result.valid, `valid OpenAPI ${document.openapi}: ${JSON.stringify(result.errors ?? [])}`);
  t.equal(document.openapi, '3.1.0');
  for (const path of ['/catalog', '/games', '/games/{id}', '/games/{id}/commands', '/games/{id}/events', '/games/{id}/view', '/games/{id}/replay', '/games/{id}/join', '/health', '/ready']) {
    t.ok(document.paths[path], `documents ${path}`);
  }
  for (const game of games) {
    const name = game.type.replace(/(^|-)(\w)/g, (_: string, __: string, c: string) => c.toUpperCase());
    t.ok(document.components.schemas[`${name}Command`], `names ${name}'s commands`);
    t.ok(document.components.schemas[`${name}Event`], `and its events`);
  }
});
