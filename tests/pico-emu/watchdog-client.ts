// The watchdog scenario, run in the board's namespace (tests/pico-emu-watchdog.test.ts): a setting is
// PUT and saved while the board serves; the runner hangs the main loop (--hang-at); once the watchdog
// has reset the chip and the board serves again, the setting, the restart count and the console are
// read back. Prints what it did and saw; the test judges.
import { boardLog, request, response, result, say, waitLog, waitServing } from './board-client';

export const NAME = 'bench-7 after a hang';
const SETTING = '/api/v1/device/system/0/name';
// 16 addresses, 64 bytes: over the 63 bytes a Preference value holds on the Pico (saved in two parts)
export const DNS = Array.from({ length: 16 }, (_, i) => `10.0.0.${i + 1}`).join(', ');
const DNS_SETTING = '/api/v1/device/ethernet/0/staticipv4dnsaddress';

const valueOf = (r: unknown): unknown => (r as { value?: unknown } | undefined)?.value;

function watchdogRestarts(metrics: string): number | undefined {
  const m = /^brainstem_restarts_total\{[^}]*cause="watchdog"[^}]*\} (\S+)$/m.exec(metrics);
  return m ? Number(m[1]) : undefined;
}

async function main(): Promise<void> {
  const out: Record<string, unknown> = { servedFirst: await waitServing(240) };
  say(`serving: ${String(out.servedFirst)}`);
  out.nameBefore = valueOf(response(await request('GET', SETTING)));
  const put = await request('PUT', SETTING, JSON.stringify({ value: NAME }));
  const putDns = await request('PUT', DNS_SETTING, JSON.stringify({ value: DNS }));
  const save = await request('GET', '/api/v1/device/system/0/save');
  out.put = put.status;
  out.putDns = putDns.status;
  out.save = save.status;
  out.restartsBefore = watchdogRestarts((await request('GET', '/metrics')).body.toString());
  out.savedBeforeHang = !/the main loop hangs/.test(boardLog());
  say(`PUT ${put.status}, save ${save.status}, saved before the hang: ${String(out.savedBeforeHang)}`);
  const hang = await waitLog(/pico-emu: the main loop hangs/, 300);
  const reset = hang && await waitLog(/pico-emu: the watchdog resets the chip/, 300, hang.end);
  out.hang = hang?.line;
  out.reset = reset?.line;
  say(`watchdog reset: ${reset?.line ?? 'none'}`);
  if (reset) {
    const serving = await waitLog(/REST API on port/, 300, reset.end);
    out.restartLine = serving?.line;
    out.servedAgain = await waitServing(240);
    out.nameAfter = valueOf(response(await request('GET', SETTING)));
    out.dnsAfter = valueOf(response(await request('GET', DNS_SETTING)));
    out.restartsAfter = watchdogRestarts((await request('GET', '/metrics')).body.toString());
  }
  result(out);
}

if (require.main === module) void main();
