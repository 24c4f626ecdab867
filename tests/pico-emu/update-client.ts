// The UF2 update scenario, run in the board's namespace (tests/pico-emu-update.test.ts): a setting is
// PUT and saved while the board serves; the runner then downloads another image as the boot ROM does
// (--uf2-at); once the board serves again, the setting and the restart counts are read back. Prints
// what it did and saw; the test judges.
import { request, response, result, say, waitLog, waitServing } from './board-client';

export const NAME = 'bench-9 before an update';
const SETTING = '/api/v1/device/system/0/name';

const valueOf = (r: unknown): unknown => (r as { value?: unknown } | undefined)?.value;

/** brainstem_restarts_total by cause, from an exposition. */
function restarts(metrics: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of metrics.matchAll(/^brainstem_restarts_total\{[^}]*cause="(\w+)"[^}]*\} (\S+)$/gm)) out[m[1]] = Number(m[2]);
  return out;
}

async function main(): Promise<void> {
  const out: Record<string, unknown> = { servedFirst: await waitServing(240) };
  const put = await request('PUT', SETTING, JSON.stringify({ value: NAME }));
  const save = await request('GET', '/api/v1/device/system/0/save');
  out.saved = put.status === 200 && save.status === 200;
  out.restartsBefore = restarts((await request('GET', '/metrics')).body.toString());
  say(`PUT ${put.status}, save ${save.status}`);
  const download = await waitLog(/pico-emu: a UF2 download/, 300);
  out.download = download?.line;
  if (download) {
    const serving = await waitLog(/REST API on port/, 300, download.end);
    out.restartLine = serving?.line;
    out.servedAgain = await waitServing(240);
    out.nameAfter = valueOf(response(await request('GET', SETTING)));
    out.restartsAfter = restarts((await request('GET', '/metrics')).body.toString());
    // the new image's first SNTP message (its console says which image runs)
    out.sntpAfter = (await waitLog(/SNTP: /, 120, download.end))?.line;
  }
  result(out);
}

if (require.main === module) void main();
