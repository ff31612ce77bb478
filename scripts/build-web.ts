// Builds the web front end (web/src) into web/dist: content-hashed bundles in assets/
// and an index.html naming them. package.json's postinstall runs it, so `npm ci`
// leaves a built page and the server (src/routes/pages.ts) never needs a manual step.
// Earlier bundles are left in place: a server started before a rebuild keeps serving
// the shell it read, which names them.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = fileURLToPath(new URL('../web/', import.meta.url));
const dist = path.join(root, 'dist');
const entry = path.join(root, 'src/main.tsx');

const result = await esbuild.build({
  entryPoints: [entry],
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  sourcemap: true,
  jsx: 'automatic',
  jsxImportSource: 'preact',
  outdir: path.join(dist, 'assets'),
  entryNames: '[name]-[hash]',
  metafile: true,
  logLevel: 'warning',
});

const [script, output] = Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint !== undefined) ?? [];
if (script === undefined || output === undefined) throw new Error('esbuild produced no entry bundle');
const asset = (file: string) => `/assets/${path.basename(file)}`;
const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Spielwerk</title>
<link rel="icon" href="data:,">
${output.cssBundle === undefined ? '' : `<link rel="stylesheet" href="${asset(output.cssBundle)}">`}
<script type="module" src="${asset(script)}"></script>
</head>
<body><div id="app"></div></body>
</html>
`;
await mkdir(dist, { recursive: true });
await writeFile(path.join(dist, 'index.html'), html);
console.log(`web front end built: ${asset(script)}`);
