// What the wired image costs on the emulated ESP32, as a client in its namespace sees it (make
// esp32-emu-figures runs it as ESP32_EMU_CLIENT): real seconds from power-on to the first answer, then
// GETs one after another (one connection each) and four clients at once, with the board's own uptime
// beside them. QEMU runs the chip as fast as it can, not at 240 MHz: the times are the emulator's, for
// comparing one build with another on one machine.
import * as http from 'node:http';

const BOARD = '192.168.77.50';

function get(path: string): Promise<number> {
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const req = http.get({ host: BOARD, port: 80, path, agent: false, timeout: 20_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200 ? Number(process.hrtime.bigint() - t0) / 1e6 : -1));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(-1));
  });
}

const quantile = (xs: number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

async function main(): Promise<void> {
  const start = Date.now();
  const path = '/api/v1/device/system/0/serialnumber';
  while ((await get(path)) < 0) await new Promise((r) => setTimeout(r, 100));
  console.log(`figures: first answer ${((Date.now() - start) / 1000).toFixed(1)} s after power-on (real)`);
  for (const [name, p] of [['a GET of a value', path], ['the device description', '/api/v1/device/0xC1000001'], ['/metrics', '/metrics']]) {
    const times: number[] = [];
    for (let i = 0; i < 100; i++) times.push(await get(p));
    const ok = times.filter((t) => t >= 0);
    console.log(`figures: ${name}, one connection each: median ${quantile(ok, 0.5).toFixed(1)} ms, 90th ${quantile(ok, 0.9).toFixed(1)} ms, ${100 - ok.length} failed`);
  }
  const rounds: number[] = [];
  for (let i = 0; i < 25; i++) {
    const t0 = Date.now();
    const r = await Promise.all([path, '/api/v1/openapi.json', '/metrics', '/'].map(get));
    rounds.push(r.every((t) => t >= 0) ? Date.now() - t0 : -1);
  }
  console.log(`figures: four clients at once (a value, the OpenAPI document, /metrics, the console): median ${quantile(rounds.filter((t) => t >= 0), 0.5)} ms a round, ${rounds.filter((t) => t < 0).length} of 25 rounds with a failure`);
}

void main();
