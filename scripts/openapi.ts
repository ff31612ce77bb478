// `npm run openapi` writes openapi/openapi.json from the route schemas;
// `npm run openapi:check` fails when the committed document is stale.
import { readFile, writeFile } from 'node:fs/promises';
import { generateOpenApi, openApiPath } from '../src/openapi.ts';

const generated = await generateOpenApi();
if (process.argv.includes('--check')) {
  const committed = await readFile(openApiPath, 'utf8').catch(() => '');
  if (committed !== generated) {
    console.error('openapi/openapi.json is stale: run `npm run openapi` and commit the result');
    process.exit(1);
  }
  console.log('openapi/openapi.json is up to date');
} else {
  await writeFile(openApiPath, generated);
  console.log(`wrote ${openApiPath.pathname}`);
}
