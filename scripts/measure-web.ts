// Prints what the browser downloads for the pages, compressed as it travels (gzip,
// level 9): each asset web/dist/index.html loads and the JavaScript in total, which the
// pages keep at or under 60 KB (docs/web.md). Builds the pages first when needed.
import { readFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';

if (process.argv.includes('--help')) {
  console.log('usage: npm run measure:web\nPrints the gzip size of each built page asset and the JavaScript total.');
  process.exit(0);
}
execFileSync('node', ['scripts/build.mjs', 'web'], { stdio: 'inherit' });
// The assets the shell loads now (earlier builds' files may still lie beside them).
const shell = await readFile('web/dist/index.html', 'utf8');
const files = [...shell.matchAll(/\/assets\/([\w.-]+)/g)].map((m) => m[1]!);
let js = 0;
for (const file of files) {
  const body = await readFile(`web/dist/assets/${file}`);
  const gz = gzipSync(body, { level: 9 }).length;
  if (file.endsWith('.js')) js += gz;
  console.log(`${file}: ${(body.length / 1024).toFixed(1)} KB, ${(gz / 1024).toFixed(1)} KB gzip`);
}
console.log(`JavaScript in total: ${(js / 1024).toFixed(1)} KB gzip (limit 60 KB)`);
