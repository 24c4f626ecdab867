// The network scenario, run in the board's namespace (tests/pico-emu-network.test.ts): malformed mDNS
// packets; the access point going away and coming back; four clients at once for the console page, the
// OpenAPI document, the description and /metrics. Prints what it saw; the test judges.
import { gunzipSync } from 'node:zlib';
import { type Answer, BOARD, request, resolve, result, say, sleep, toggleAccessPoint, waitLog, waitServing } from './board-client';
import { hostilePackets, sendHostile } from './hostile-mdns';
import { watchResponses } from './mdns-watch';

const LOCAL = '192.168.77.1';
const INSTANCE = 'brainstem-c1000001';
export const ROUNDS = 6;

export interface Fetched { path: string; status: number; bytes: number; contentLength?: number; encoding?: string; whole: string; seconds: number; error?: string }

/** Whether an answer is whole, by what it is: the page ends its HTML, JSON parses, /metrics ends a sample line. */
function wholeness(path: string, a: Answer): string {
  try {
    const body = a.headers['content-encoding'] === 'gzip' ? gunzipSync(a.body) : a.body;
    const text = body.toString('utf8');
    if (path === '/') return /<\/html>\s*$/i.test(text) ? 'html' : `html cut: ${JSON.stringify(text.slice(-40))}`;
    if (path === '/metrics') {
      const lines = text.split('\n');
      const bad = lines.slice(0, -1).filter((l) => !/^(# (HELP|TYPE) \w+ .+|\w+(\{[^}]*\})? -?[\d.e+-]+|NaN)$/.test(l));
      return lines.at(-1) === '' && bad.length === 0 ? `metrics ${lines.length - 1} lines` : `metrics bad: ${JSON.stringify(bad.slice(0, 2))}${JSON.stringify(lines.at(-1))}`;
    }
    const json = JSON.parse(text) as { response?: { serialNumber?: string }; openapi?: string };
    return path.startsWith('/api/v1/device/') ? `description of ${json.response?.serialNumber}` : `openapi ${json.openapi}`;
  } catch (e) {
    return `not whole: ${(e as Error).message}`;
  }
}

export async function fetchOne(path: string): Promise<Fetched> {
  const a = await request('GET', path, undefined, 120_000);
  const cl = a.headers['content-length'];
  return { path, status: a.status, bytes: a.body.length, contentLength: cl === undefined ? undefined : Number(cl),
    encoding: a.headers['content-encoding'] as string | undefined, whole: wholeness(path, a), seconds: a.seconds, error: a.error };
}

async function apAwayAndBack(out: Record<string, unknown>): Promise<void> {
  const watch = await watchResponses(BOARD, LOCAL);
  toggleAccessPoint();
  const away = await waitLog(/pico-emu: the access point goes away/, 60);
  // gone: a request fails (the link is down, the board has no address)
  const failed = await request('GET', '/api/v1/device/system/0/serialnumber', undefined, 15_000);
  out.whileAway = failed.error ?? failed.status;
  await sleep(10_000);
  const announcedBefore = watch.responses.length;
  toggleAccessPoint();
  const backAt = Date.now();
  const back = await waitLog(/pico-emu: the access point is back/, 60, away?.end);
  out.servedAfterBack = await waitServing(300);
  out.announcedAgain = (await waitLog(/announced brainstem-/, 120, back?.end))?.line;
  await sleep(3000);
  out.announcementsAfterBack = watch.responses.filter((t) => t >= backAt).length;
  out.announcementsBefore = announcedBefore;
  watch.close();
  out.resolvedAfterBack = resolve(INSTANCE);
  say(`access point back: served ${String(out.servedAfterBack)}, ${String(out.announcedAgain)}, ${String(out.resolvedAfterBack)}`);
}

async function main(): Promise<void> {
  const out: Record<string, unknown> = { served: await waitServing(300) };
  const packets = hostilePackets(`${INSTANCE}.local`);
  out.hostileSent = await sendHostile(packets, BOARD, LOCAL);
  say(`sent ${String(out.hostileSent)} hostile mDNS packets: ${packets.map(([what]) => what).join('; ')}`);
  await sleep(5000);
  out.afterHostile = (await request('GET', '/api/v1/device/system/0/serialnumber')).status;
  out.resolvedAfterHostile = resolve(INSTANCE);
  say(`after them: HTTP ${String(out.afterHostile)}, ${String(out.resolvedAfterHostile)}`);
  await apAwayAndBack(out);
  // last: a board that fails under this load takes the other checks with it. Six rounds, as a
  // browser's reloads and a scraper's next scrape would be.
  const paths = ['/', '/api/v1/openapi.json', '/api/v1/device/0xC1000001', '/metrics'];
  const rounds: Fetched[][] = [];
  out.four = rounds;
  for (let round = 0; round < ROUNDS; round++) {
    rounds.push(await Promise.all(paths.map(fetchOne)));
    say(`four clients, round ${round + 1}: ${JSON.stringify(rounds[round])}`);
    if (rounds[round].some((f) => f.status !== 200)) break;
  }
  out.afterFour = (await request('GET', '/api/v1/device/system/0/serialnumber', undefined, 30_000)).status;
  result(out);
}

if (require.main === module) void main();
