// Clients that leave bytes unread on the board's side, then ordinary ones: run in the emulated board's
// network namespace (PICO_EMU_CLIENT="node tools/pico-emu/unread-clients.mjs" make pico-emu-net). Each of
// ROUNDS rounds: a PUT whose body is over the limit, sent whole with its head (the board refuses it with
// 413 and closes with the body unread), a GET with Connection: close followed by more bytes, then four
// clients at once and one more GET. A board that frees a connection twice when it closes with bytes
// unread (lwIP's tcp_close then tcp_abort) stops answering here; one that reads them away serves on.
// Prints one line per answer and "unread-clients: N of M answered" at the end.
import net from 'node:net';

const HOST = '192.168.77.50';
const ROUNDS = Number(process.env.PICO_EMU_UNREAD_ROUNDS || 3);
const TIMEOUT_MS = 60000;

/** Send `bytes` on a fresh connection; resolve with the status line of what comes back before the close. */
function raw(bytes) {
  return new Promise((resolve) => {
    const s = net.connect(80, HOST);
    let got = '';
    const done = (why) => { s.destroy(); resolve(got.split('\r\n')[0] || why); };
    s.setTimeout(TIMEOUT_MS, () => done('timeout'));
    s.on('connect', () => s.write(bytes));
    s.on('data', (b) => { got += b.toString('latin1'); });
    s.on('end', () => done('closed, no answer'));
    s.on('error', (e) => done(e.code || e.message));
  });
}

const get = (path, extra = '') => `GET ${path} HTTP/1.1\r\nHost: ${HOST}\r\nConnection: close\r\n${extra}\r\n`;
const pause = (ms) => new Promise((r) => setTimeout(r, ms));

async function untilServing() {
  for (;;) {
    if ((await raw(get('/api/v1/device/system/0/serialnumber'))).includes(' 200 ')) return;
    await pause(1000);
  }
}

let asked = 0, answered = 0;
function report(what, line) {
  asked++;
  if (/^HTTP\/1\.1 \d\d\d /.test(line)) answered++;
  console.log(`unread-clients: ${what}: ${line}`);
}

await untilServing();
const body = 'x'.repeat(1400);
for (let r = 1; r <= ROUNDS; r++) {
  report(`round ${r}, PUT with a 5000-byte body`, await raw(`PUT /api/v1/device/system/0/name HTTP/1.1\r\nHost: ${HOST}\r\n` +
    `Content-Type: application/json\r\nContent-Length: 5000\r\n\r\n${body}`));
  report(`round ${r}, GET and 1400 bytes more`, await raw(get('/api/v1/device/system/0/serialnumber') + body));
  const four = ['/', '/api/v1/openapi.json', '/api/v1/device/system/0/serialnumber', '/metrics'];
  const lines = await Promise.all(four.map((p) => raw(get(p))));
  lines.forEach((l, i) => report(`round ${r}, at once ${four[i]}`, l));
  report(`round ${r}, GET`, await raw(get('/api/v1/device/system/0/serialnumber')));
}
console.log(`unread-clients: ${answered} of ${asked} answered`);
