// A client that vanishes mid-answer and is never heard of again, run in the board's namespace
// (tests/pico-emu-giveup.test.ts): lwIP retransmits the board's last segment 12 times, from 3 s
// doubling to 384 s (about 38 minutes), then gives up and frees the connection (tcp_slowtmr). Once
// GIVE_UP_S of emulated time have passed since the link dropped it (the runner's memory lines carry the
// board's clock), four clients fetch the page, the OpenAPI document, the description and /metrics at
// once. Prints what it saw; the test judges.
import { request, result, say, waitLog, waitServing } from './board-client';
import { fetchOne, type Fetched } from './network-client';
import { vanish } from './vanish-client';

const PATHS = ['/', '/api/v1/openapi.json', '/api/v1/device/0xC1000001', '/metrics'];
/** Past lwIP's give-up (3 + 6 + … + 192 + 5 × 384 = 2,301 s) with room. */
const GIVE_UP_S = 2460;
const WAIT_S = Number(process.env.PICO_EMU_WAIT_S || 4000);

const stampOf = (line: string): number => Number(/^\[(\d+\.\d+) s\]/.exec(line)?.[1] ?? NaN);

async function main(): Promise<void> {
  const out: { served: boolean; vanishedAfter?: number; droppedAt?: number; waitedTo?: number; four: Fetched[]; afterFour?: number } = { served: await waitServing(300), four: [] };
  if (out.served) {
    out.vanishedAfter = await vanish();
    const dropped = await waitLog(/pico-emu: the link drops TCP port/, 60);
    out.droppedAt = dropped ? stampOf(dropped.line) : NaN;
    say(`a client vanished after ${out.vanishedAfter} bytes of the OpenAPI document, at ${out.droppedAt} s`);
    let from = dropped?.end ?? 0;
    for (;;) {
      const m = await waitLog(/^\[\d+\.\d+ s\] memory: /, WAIT_S, from);
      if (!m) break;
      from = m.end;
      out.waitedTo = stampOf(m.line);
      if (out.waitedTo - (out.droppedAt ?? 0) >= GIVE_UP_S) break;
    }
    out.four = await Promise.all(PATHS.map((p) => fetchOne(p)));
    say(`four clients: ${JSON.stringify(out.four)}`);
    out.afterFour = (await request('GET', '/api/v1/device/system/0/serialnumber', undefined, 30_000)).status;
  }
  result(out);
}

void main();
