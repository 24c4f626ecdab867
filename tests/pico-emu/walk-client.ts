// The walk, run in the board's namespace (tests/pico-emu-walk.long.ts, make pico-emu-walk): a GET of
// every route of the board's own description, each operation with a PUT sent back its current value
// and then a changed value read back, the original put back after; then, once the board has run 150 s
// of emulated time, python-zeroconf resolves it. Every answer is checked against the board's own
// OpenAPI document (tests/openapi-validator.ts). Prints each route's outcome; the test judges.
import { gunzipSync } from 'node:zlib';
import { OpenApiValidator } from '../openapi-validator';
import { type Answer, boardLog, boardStopped, request, resolve, result, say, sleep, waitServing } from './board-client';
import { changedValue, type Operation, routesOf } from './walk-routes';

export interface Step { route: string; get: number; value?: unknown; back?: number; changed?: unknown; put?: number; readBack?: unknown; restored?: number; error?: string }

const API = '/api/v1/device/0xC1000001/';

let validator: OpenApiValidator | undefined;
/** What of the walk's answers the board's OpenAPI document does not describe. */
const nonconforming: string[] = [];

/** Checks an answer against the document: its status documented, its JSON body of the schema. */
function check(method: string, route: string, a: Answer): Answer {
  let body: unknown;
  try {
    body = a.body.length ? JSON.parse(a.body.toString()) : undefined;
  } catch {
    nonconforming.push(`${method} ${route} ${a.status}: not JSON`);
    return a;
  }
  const wrong = validator?.check(method, API + route, a.status, body);
  if (wrong) nonconforming.push(wrong);
  return a;
}

async function get(route: string): Promise<{ status: number; value?: unknown; error?: string }> {
  const a = check('GET', route, await request('GET', API + route));
  let value: unknown;
  try {
    value = (JSON.parse(a.body.toString()) as { response?: { value?: unknown } }).response?.value;
  } catch { /* not JSON */ }
  return { status: a.status, value, error: a.status === 200 ? undefined : a.error ?? a.body.toString().slice(0, 200) };
}

const put = async (route: string, value: unknown): Promise<number> => check('PUT', route, await request('PUT', API + route, JSON.stringify({ value }))).status;

async function walkOne(route: string, op: Operation): Promise<Step> {
  const read = await get(route);
  const step: Step = { route, get: read.status, value: read.value, error: read.error };
  if (!op.put || read.status !== 200) return step;
  step.back = await put(route, read.value);
  const changed = changedValue(op, read.value);
  if (changed === undefined) return step;
  step.changed = changed;
  step.put = await put(route, changed);
  step.readBack = (await get(route)).value;
  step.restored = await put(route, read.value);
  return step;
}

/** The latest emulated second on the board's console. */
function emulatedSeconds(): number {
  const stamps = [...boardLog().matchAll(/^\[(\d+\.\d+) s\]/gm)];
  return stamps.length ? Number(stamps[stamps.length - 1][1]) : 0;
}

/** The board's own uptime in seconds, in whole minutes (system/0/uptime): the console may stay quiet. */
async function uptimeSeconds(): Promise<number> {
  const a = await request('GET', `${API}system/0/uptime`, undefined, 30_000);
  try {
    return 60 * Number((JSON.parse(a.body.toString()) as { response: { value: number } }).response.value);
  } catch {
    return 0;
  }
}

async function main(): Promise<void> {
  const out: Record<string, unknown> = { served: await waitServing(300) };
  const doc = await request('GET', '/api/v1/openapi.json');
  const text = doc.headers['content-encoding'] === 'gzip' ? gunzipSync(doc.body) : doc.body;
  validator = new OpenApiValidator(JSON.parse(text.toString('utf8')));
  const description = await request('GET', API.slice(0, -1));
  const routes = routesOf(JSON.parse(description.body.toString()));
  const steps: Step[] = [];
  for (const [route, op] of routes) {
    const step = await walkOne(route, op);
    say(JSON.stringify(step));
    steps.push(step);
    if (boardStopped()) break;
  }
  out.steps = steps;
  out.nonconforming = nonconforming;
  out.walkedAt = emulatedSeconds();
  // 3 minutes of uptime: past 150 s (the SRV and TXT records' 120 s, and more)
  while ((out.resolvedAt = await uptimeSeconds()) < 180 && !boardStopped()) await sleep(10_000);
  out.resolved = resolve('brainstem-c1000001');
  say(`at ${String(out.resolvedAt)} s: ${String(out.resolved)}`);
  result(out);
}

if (require.main === module) void main();
