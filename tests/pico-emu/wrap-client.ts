// The 32-bit millisecond wrap, run in the board's namespace (tests/pico-emu-wrap.test.ts): the board's
// timer starts a little before 2^32 ms (run.mjs --timer-ms); once it serves, the clock is set by PUT
// (a year past 2023, so answers carry Date:), read, and read again after the runner says the timer
// has passed the wrap. Prints what it saw; the test judges.
import { request, response, result, say, sleep, waitLog, waitServing, type Answer } from './board-client';

const YEAR = '/api/v1/device/clock/0/year';

interface Reading { status: number; year: unknown; stamp?: string; date?: string; real: number; afterWrap: boolean }

const t0 = Date.now();
let wrapped = false;

function reading(a: Answer): Reading {
  let stamp: string | undefined;
  try {
    stamp = (JSON.parse(a.body.toString('utf8')) as { timestamp?: string }).timestamp;
  } catch { /* not JSON */ }
  const date = a.headers.date;
  return { status: a.status, year: (response(a) as { value?: unknown } | undefined)?.value, stamp,
    date: typeof date === 'string' ? date : undefined, real: (Date.now() - t0) / 1000, afterWrap: wrapped };
}

async function main(): Promise<void> {
  const out: { served: boolean; put?: number; readings: Reading[] } = { served: await waitServing(240), readings: [] };
  say(`serving: ${String(out.served)}`);
  if (out.served) {
    out.put = (await request('PUT', YEAR, JSON.stringify({ value: 2026 }))).status;
    out.readings.push(reading(await request('GET', YEAR)));
    say(`before the wrap: ${JSON.stringify(out.readings[0])}`);
    const wrap = await waitLog(/pico-emu: the timer passes 2\^32 ms/, Number(process.env.PICO_EMU_WAIT_S || 600));
    wrapped = wrap !== undefined;
    for (let k = 0; k < 3 && wrapped; k++) {
      await sleep(3000);
      out.readings.push(reading(await request('GET', YEAR)));
      say(`after the wrap: ${JSON.stringify(out.readings[out.readings.length - 1])}`);
    }
  }
  result(out);
}

if (require.main === module) void main();
