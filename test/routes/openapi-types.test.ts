// What a client generated from the committed OpenAPI document knows, checked by the
// compiler: openapi-typescript writes the types, tsc compiles code that uses them.
// Each `@ts-expect-error` is a mistake the generated types must refuse; tsc reports
// a directive that has nothing to refuse, so the test fails if the types let it pass.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import ts from 'typescript';
import { clientTypesPath, generateClientTypes } from '../../scripts/client-types.ts';
import { openApiPath } from '../../src/openapi.ts';

const usage = `
import type { components, paths } from './api.ts';
type Schemas = components['schemas'];
type CommandBody<P extends keyof paths> = paths[P] extends { post: { requestBody: { content: { 'application/json': infer B } } } } ? B : never;

export const throwDice: CommandBody<'/games/{id}/commands/pechvogel'> = { command: { type: 'throw' }, expectedVersion: 1 };
// @ts-expect-error Porca Miseria's slap is no Pechvogel command
export const slap: CommandBody<'/games/{id}/commands/pechvogel'> = { command: { type: 'slap' } };
// @ts-expect-error a Pechvogel target is a number 3 to 7
export const badTarget: CommandBody<'/games/{id}/commands/pechvogel'> = { command: { type: 'chooseTarget', target: 9 } };

export function describe(details: Schemas['GameDetails']): string {
  switch (details.gameType) {
    case 'pechvogel':
      return details.view.phase;
    case 'fackel-und-keule':
      // A seat's view has its hand, a spectator's none: the types say it may be null.
      return String(details.view.you?.hand.length ?? 0);
    case 'mistkaefer':
      // @ts-expect-error Mistkäfer's view has no phase called round
      return details.view.round;
    case 'porca-miseria':
      return details.view.card?.kind ?? 'no card';
  }
}

export const legal = (details: Schemas['PorcaMiseriaGameDetails']) => details.legalCommands.map((c) => c.type);
// @ts-expect-error the options of a game are checked as well
export const options: Schemas['CreateGameRequestInput'] = { type: 'porca-miseria', seats: [{}, {}, {}], options: { expert: 'yes' } };
export const code = (problem: Schemas['Problem']): boolean => problem.code === 'command/stale-version';
// @ts-expect-error Problem.code is one of the stable codes
export const unknownCode = (problem: Schemas['Problem']): boolean => problem.code === 'command/stale';
// @ts-expect-error the server's own timeout is no command a seat sends
export const timeout: CommandBody<'/games/{id}/commands/porca-miseria'> = { command: { type: 'timeout' } };
export const seats: Schemas['CreateGameRequestInput'] = { type: 'pechvogel', seats: [{ name: 'Ada' }, { open: true }, { bot: 'greedy' }, { name: 'Bot', bot: 'random' }] };
// @ts-expect-error the bots are enumerated
export const unknownBot: Schemas['CreateGameRequestInput'] = { type: 'pechvogel', seats: [{}, { bot: 'smart' }] };
// @ts-expect-error a seat is a person, an open seat or a bot, not two of them
export const openBot: Schemas['CreateGameRequestInput'] = { type: 'pechvogel', seats: [{}, { name: 'x', bot: 'greedy', open: true }] };
`;

t.test('a client generated from openapi.json types each game apart', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'spielwerk-types-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'api.ts'), await generateClientTypes(await readFile(openApiPath, 'utf8')));
  await writeFile(join(dir, 'usage.ts'), usage);
  const program = ts.createProgram([join(dir, 'usage.ts')], {
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    types: [],
  });
  const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  t.same(problems, [], 'compiles, and every @ts-expect-error is an error');
});

t.test("the TypeScript client's committed REST types are generated from the committed openapi.json", async (t) => {
  t.equal(await readFile(clientTypesPath, 'utf8'), await generateClientTypes(await readFile(openApiPath, 'utf8')), 'npm run openapi regenerates them');
});
