// scripts/build.mjs, which `npm install`, `npm start`, `npm test` and `npm run build`
// run: each part is built when its sources changed and only then, so that starting an
// unchanged checkout runs no compiler. Tried on a copy of the script in a scratch
// folder, with the compilers replaced by scripts that write down that they ran.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';

const run = promisify(execFile);

/** A compiler stand-in: writes down its arguments and makes the folder it would fill
 * (`output`: a JavaScript expression). Either module kind: tsc's has no extension. */
const stand = (output: string) => `const { appendFileSync, mkdirSync } = process.getBuiltinModule('node:fs');
appendFileSync('built.log', JSON.stringify(process.argv.slice(2)) + '\\n');
mkdirSync(${output}, { recursive: true });
`;

t.test('each part is built at the first run, then again only when its sources change', async (t) => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'spielwerk-build-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const write = async (file: string, text: string) => {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  };
  await mkdir(path.join(root, 'scripts'));
  await copyFile(new URL('../../scripts/build.mjs', import.meta.url), path.join(root, 'scripts/build.mjs'));
  // tsc builds the kit or the server, depending on its -p; tsx runs build-web.ts.
  await write('node_modules/typescript/bin/tsc', stand(`process.argv[3] === 'tsconfig.build.json' ? 'dist' : 'clients/typescript/dist'`));
  await write('node_modules/tsx/dist/cli.mjs', stand(`'web/dist'`));
  for (const file of ['src/server.ts', 'tsconfig.json', 'tsconfig.build.json', 'clients/typescript/src/index.ts', 'clients/typescript/package.json', 'web/src/main.tsx', 'scripts/build-web.ts']) await write(file, `// ${file}\n`);

  const build = async (...parts: string[]) => {
    await rm(path.join(root, 'built.log'), { force: true });
    await run(process.execPath, [path.join(root, 'scripts/build.mjs'), ...parts], { cwd: root });
    const log = await readFile(path.join(root, 'built.log'), 'utf8').catch(() => '');
    return log.trim().split('\n').filter((line) => line !== '').map((line) => (JSON.parse(line) as string[]).join(' '));
  };

  t.same(await build(), ['-p clients/typescript/tsconfig.build.json', '-p tsconfig.build.json', 'scripts/build-web.ts'], 'a fresh checkout: the kit, the server, the web pages');
  t.same(await build(), [], 'an unchanged checkout: nothing (what npm start finds every time)');
  await write('src/server.ts', '// changed\n');
  t.same(await build(), ['-p tsconfig.build.json'], 'a changed source of the service: the service alone');
  await write('clients/typescript/src/index.ts', '// changed\n');
  t.same(await build(), ['-p clients/typescript/tsconfig.build.json', 'scripts/build-web.ts'], "a changed source of the kit: the kit, and the pages that bundle it");
  await write('src/new-module.ts', '// added\n');
  await write('web/src/main.tsx', '// changed\n');
  t.same(await build('server'), ['-p tsconfig.build.json'], 'an added file counts as a change; asked for one part, that part only');

  await rm(path.join(root, 'src'), { recursive: true });
  t.same(await build(), ['scripts/build-web.ts'], 'without src/ (the image installs before it copies the sources) the service is not built; the pages changed above are');
});
