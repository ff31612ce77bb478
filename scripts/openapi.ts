// `npm run openapi` writes openapi/openapi.json from the route schemas and
// asyncapi/asyncapi.json from the live socket's message schemas;
// `npm run openapi:check` fails when either committed document is stale.
import { readFile, writeFile } from 'node:fs/promises';
import { asyncApiPath, generateAsyncApi } from '../src/asyncapi.ts';
import { generateOpenApi, openApiPath } from '../src/openapi.ts';

const documents = [
  { path: openApiPath, text: await generateOpenApi() },
  { path: asyncApiPath, text: generateAsyncApi() },
];
const check = process.argv.includes('--check');
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
