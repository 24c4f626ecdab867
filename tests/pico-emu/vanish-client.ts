// A client that vanishes mid-answer, run in the board's namespace (tests/pico-emu-vanish.test.ts): it
// asks for the OpenAPI document (the longest answer) and, with its first bytes in, is dropped from the link both ways
// (PICO_EMU_CUT_FILE: a phone that left the Wi-Fi acknowledges nothing and sends no reset). Once 40 s
// of emulated time have passed (its connection timed out and closed on the board), four clients fetch
// the page, the OpenAPI document, the description and /metrics at once, twice. Prints what it saw; the
// test judges.
import * as fs from 'node:fs';
import * as net from 'node:net';
import { BOARD, request, result, say, waitLog, waitServing } from './board-client';
import { fetchOne, type Fetched } from './network-client';

const PATHS = ['/', '/api/v1/openapi.json', '/api/v1/device/0xC1000001', '/metrics'];
const WAIT_S = Number(process.env.PICO_EMU_WAIT_S || 900);

/** Asks for the page and vanishes once its first bytes are in: the bytes it had. */
export function vanish(): Promise<number> {
  return new Promise((resolve) => {
    const socket = net.connect(80, BOARD);
    let bytes = 0;
    socket.on('connect', () => socket.write(`GET /api/v1/openapi.json HTTP/1.1\r\nHost: ${BOARD}\r\nAccept-Encoding: gzip\r\n\r\n`));
    socket.on('data', (d: Buffer) => {
      if (!bytes) {
        fs.writeFileSync(process.env.PICO_EMU_CUT_FILE ?? '', String(socket.localPort));
        void waitLog(/pico-emu: the link drops TCP port/, 60).then(() => {
          socket.destroy(); // its FIN or reset never reaches the board
          resolve(bytes);
        });
      }
      bytes += d.length;
    });
    socket.on('error', () => resolve(bytes));
  });
}

async function main(): Promise<void> {
  const out: { served: boolean; vanishedAfter?: number; four: Fetched[][]; afterFour?: number } = { served: await waitServing(300), four: [] };
  if (out.served) {
    out.vanishedAfter = await vanish();
    say(`a client vanished after ${out.vanishedAfter} bytes of the OpenAPI document`);
    const closed = await waitLog(/pico-emu: 40 s since the link dropped/, WAIT_S);
    for (let round = 0; closed && round < 2; round++) {
      out.four.push(await Promise.all(PATHS.map((p) => fetchOne(p))));
      say(`four clients, round ${round + 1}: ${JSON.stringify(out.four[round])}`);
    }
    out.afterFour = (await request('GET', '/api/v1/device/system/0/serialnumber', undefined, 30_000)).status;
  }
  result(out);
}

if (require.main === module) void main();
