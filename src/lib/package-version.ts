import { readFileSync } from 'node:fs';

/** The service's version, package.json's (beside src/ and dist/ alike): the version of
 * the OpenAPI and AsyncAPI documents. */
export const packageVersion = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
