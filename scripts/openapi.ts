// `npm run openapi` writes openapi/openapi.json from the route schemas,
// asyncapi/asyncapi.json from the live socket's message schemas, and the TypeScript
// client's REST types and message schemas from the two; `npm run openapi:check` fails
// when any committed one is stale.
import { readFile, writeFile } from 'node:fs/promises';
import { asyncApiPath, generateAsyncApi } from '../src/asyncapi.ts';
import { generateOpenApi, openApiPath } from '../src/openapi.ts';
import { clientMessagesPath, clientTypesPath, generateClientMessages, generateClientTypes } from './client-types.ts';
import { parseOptions } from './lib.ts';

const { check } = parseOptions(import.meta.url, { check: { type: 'boolean', default: false } });

const openApi = await generateOpenApi();
const asyncApi = generateAsyncApi();
const documents = [
  { path: openApiPath, text: openApi },
  { path: asyncApiPath, text: asyncApi },
  { path: clientTypesPath, text: await generateClientTypes(openApi) },
  { path: clientMessagesPath, text: generateClientMessages(asyncApi) },
];
let stale = false;
for (const { path, text } of documents) {
  const name = path.pathname.split('/').slice(-2).join('/');
  if (check) {
    const committed = await readFile(path, 'utf8').catch(() => '');
    if (committed === text) console.log(`${name} is up to date`);
    else {
      console.error(`${name} is stale: run \`npm run openapi\` and commit the result`);
      stale = true;
    }
  } else {
    await writeFile(path, text);
    console.log(`wrote ${path.pathname}`);
  }
}
if (stale) process.exit(1);
