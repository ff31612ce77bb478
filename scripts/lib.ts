// What the scripts share: command-line options with their usage, and for those that
// drive a running server, requests with a JSON body and a seat's bearer token, the
// address of a game's live socket, and latency percentiles.
// Paths are absolute, so a base URL counts by its origin only.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A script's command-line options. `--help` prints the script's header comment, which
 * is its usage; an unknown or malformed option, a positional argument, or an option
 * named in `numbers` that is not a number ≥ 0 (all of them string options) exits 2
 * with that usage instead of a stack trace or a run with NaN. */
export function parseOptions<const O extends NonNullable<ParseArgsConfig['options']>, const N extends keyof O & string = never>(
  scriptUrl: string,
  options: O,
  numbers: readonly N[] = [],
) {
  const usage = () => {
    const header = readFileSync(fileURLToPath(scriptUrl), 'utf8').split('\n');
    return header.slice(0, header.findIndex((line) => !line.startsWith('//'))).map((line) => line.replace(/^\/\/ ?/, '')).join('\n');
  };
  if (process.argv.includes('--help')) {
    console.log(usage());
    process.exit(0);
  }
  const refuse = (message: string): never => {
    console.error(`${message}\n\n${usage()}`);
    process.exit(2);
  };
  let values: ReturnType<typeof parseArgs<{ options: O }>>['values'];
  try {
    values = parseArgs({ options }).values;
  } catch (error) {
    return refuse((error as Error).message);
  }
  const parsed: Record<string, unknown> = { ...values };
  for (const name of numbers) {
    const raw = parsed[name];
    if (raw === undefined) continue;
    const number = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
    if (!Number.isFinite(number) || number < 0) refuse(`Option '--${name}' takes a number ≥ 0, not ${JSON.stringify(raw)}`);
    parsed[name] = number;
  }
  type Values = typeof values;
  return parsed as Omit<Values, N> & { [K in N]: K extends keyof Values ? (undefined extends Values[K] ? number | undefined : number) : never };
}

/** A script of commands (`npm run tournament -- run --id X`): the command, taken off
 * the arguments, and the options after it. `--help` anywhere, before or after the
 * command, prints the usage and exits 0. */
export function parseCommand<const O extends NonNullable<ParseArgsConfig['options']>>(scriptUrl: string, options: O) {
  const first = process.argv[2];
  const command = first === undefined || first.startsWith('-') ? undefined : first;
  if (command !== undefined) process.argv.splice(2, 1);
  return { command, options: parseOptions(scriptUrl, options) };
}

/** A request to the API as the holder of `key` (an API key): its JSON answer (or text,
 * for an answer that is no JSON), or an Error naming the status and the problem's code. */
export async function callApi(base: string, key: string, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<any> {
  const response = await fetch(new URL(path, base), {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) {
    const problem = (() => { try { return JSON.parse(text); } catch { return { code: 'not-json', detail: text.slice(0, 200) }; } })();
    throw new Error(`${method} ${path}: ${response.status} ${problem.code}: ${problem.detail}`);
  }
  return text.length > 0 && /^application\/json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : text;
}

export interface Reply {
  readonly status: number;
  readonly json: any;
}

/** Method, headers and body of a request that sends `body` as JSON, as the seat holding
 * `token`; fetch and undici both take them as they are. */
export function jsonRequest(method: 'GET' | 'POST', body?: unknown, token?: string) {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  return { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
}

/** A request over fetch. An answer that is not JSON comes back as a problem with the code
 * 'not-json', so that callers can report it like any other refusal. */
export async function fetchJson(base: string | URL, method: 'GET' | 'POST', path: string, body?: unknown, token?: string): Promise<Reply> {
  const response = await fetch(new URL(path, base), jsonRequest(method, body, token));
  const text = await response.text();
  try {
    return { status: response.status, json: JSON.parse(text) };
  } catch {
    return { status: response.status, json: { code: 'not-json', detail: text.slice(0, 200) } };
  }
}

/** The live socket of game `id`, as the seat holding `token` or as a spectator. */
export function liveUrl(base: string | URL, id: string, token?: string): URL {
  const url = new URL(`/games/${id}/live${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`, base);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url;
}

/** p50, p90, p99 and the largest of the samples, unrounded, by nearest rank: the p-th
 * percentile is the sample at index ⌈p·n⌉ − 1 of the sorted n; undefined without samples. */
export function percentiles(samples: readonly number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number): number | undefined => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
  return { n: sorted.length, p50: at(50), p90: at(90), p99: at(99), max: sorted.at(-1) };
}

/** percentiles() rounded to `decimals` places, null without samples, for a JSON report. */
export function roundedPercentiles(samples: readonly number[], decimals: number) {
  const round = (x: number | undefined) => (x === undefined ? null : Number(x.toFixed(decimals)));
  const { n, p50, p90, p99, max } = percentiles(samples);
  return { n, p50: round(p50), p90: round(p90), p99: round(p99), max: round(max) };
}

/** Ends the run with one JSON line and exit code 124 after `seconds`, so a benchmark
 * that hangs still prints what it is; clear it when the run is done. */
export function giveUpAfter(seconds: number): NodeJS.Timeout {
  return setTimeout(() => {
    console.log(JSON.stringify({ ok: false, error: `gave up after ${seconds} s` }));
    process.exit(124);
  }, seconds * 1000);
}
