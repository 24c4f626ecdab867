// What the wired image costs on the emulated ESP32, as a client in its namespace sees it (make
// esp32-emu-figures runs it as ESP32_EMU_CLIENT): real seconds from power-on to the first answer, then
// GETs one after another (one connection each) and four clients at once. QEMU runs the chip as fast as it
// can, not at 240 MHz: the times are the emulator's, for comparing one build with another on one machine.
// Then the memory, read from the chip through QEMU's gdbstub (BOARD_GDB; board-memory.mjs, for the image
// ESP32_FLASH_IMAGE): idle, and sampled while four clients ask again (each reading stops the chip for a
// few milliseconds, so these rounds are not the timed ones). In a run with the instruction counter
// (BOARD_INSN_COUNT, QEMU with insn-count.so, which slows it) it prints instead what the chip executes
// for a GET on its own connection, from its SYN to its close, less what the idle chip executes meanwhile.
// With ESP32_ANCHOR=1 the board is the anchor (tools/esp32-anchor: the SDK's own http Server), asked
// for its /value, an answer of the size of the module's GET of a value, the same ways.
import * as fs from 'node:fs';
import * as http from 'node:http';
import { resolve } from 'node:path';
import { readMemory, withGdb } from './gdb-remote';

const BOARD = '192.168.77.50';

/** Why each failed GET failed (the status, or the socket's error): printed with the figures. */
const failures: string[] = [];

function get(path: string): Promise<number> {
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const failed = (why: string): void => { failures.push(`${path}: ${why}`); resolve(-1); };
    const req = http.get({ host: BOARD, port: 80, path, agent: false, timeout: 20_000 }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(Number(process.hrtime.bigint() - t0) / 1e6) : failed(`HTTP ${res.statusCode}`)));
      res.on('error', (e) => failed(`${e.message} in the answer`));
    });
    req.on('timeout', () => req.destroy(new Error('no answer in 20 s')));
    req.on('error', (e) => failed(e.message));
  });
}

const quantile = (xs: number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Instructions a GET of each kind costs the chip (the counter's file read before and after 50 of them). */
async function instructionFigures(file: string, paths: [string, string][]): Promise<void> {
  const count = (): number => Number(fs.readFileSync(file, 'utf8'));
  await sleep(5000); // past the announcements and the clock's first exchange
  let c0 = count();
  let t0 = Date.now();
  await sleep(3000);
  const idlePerMs = (count() - c0) / (Date.now() - t0);
  console.log(`figures: instructions of the idle chip: ${Math.round(idlePerMs * 1000)} a second`);
  for (const [name, p] of paths) {
    c0 = count();
    t0 = Date.now();
    for (let i = 0; i < 50; i++) await get(p);
    await sleep(50); // the counter's file is written every 10 ms
    const each = (count() - c0 - idlePerMs * (Date.now() - t0)) / 50;
    console.log(`figures: instructions for ${name}, one connection each (SYN to close, less the idle chip's): ${Math.round(each)}`);
  }
}

const ANCHOR = process.env.ESP32_ANCHOR === '1';

async function main(): Promise<void> {
  const start = Date.now();
  const path = ANCHOR ? '/value' : '/api/v1/device/system/0/serialnumber';
  while ((await get(path)) < 0) await sleep(100);
  failures.length = 0; // those while the board starts are not failures
  const paths: [string, string][] = ANCHOR
    ? [['the anchor (the SDK\'s http Server): a GET of /value', path]]
    : [['a GET of a value', path], ['the device description', '/api/v1/device/0xC1000001'], ['/metrics', '/metrics']];
  if (process.env.BOARD_INSN_COUNT) {
    await instructionFigures(process.env.BOARD_INSN_COUNT, paths);
    if (failures.length) console.log(`figures: failed: ${failures.join('; ')}`);
    return;
  }
  console.log(`figures: ${ANCHOR ? 'the anchor\'s ' : ''}first answer ${((Date.now() - start) / 1000).toFixed(1)} s after power-on (real)`);
  for (const [name, p] of paths) {
    const times: number[] = [];
    for (let i = 0; i < 100; i++) times.push(await get(p));
    const ok = times.filter((t) => t >= 0);
    console.log(`figures: ${name}, one connection each: median ${quantile(ok, 0.5).toFixed(1)} ms, 90th ${quantile(ok, 0.9).toFixed(1)} ms, ${100 - ok.length} failed`);
  }
  if (ANCHOR) {
    if (failures.length) console.log(`figures: failed: ${failures.join('; ')}`);
    return;
  }
  const rounds: number[] = [];
  for (let i = 0; i < 25; i++) {
    const t0 = Date.now();
    const r = await Promise.all([path, '/api/v1/openapi.json', '/metrics', '/'].map(get));
    rounds.push(r.every((t) => t >= 0) ? Date.now() - t0 : -1);
  }
  console.log(`figures: four clients at once (a value, the OpenAPI document, /metrics, the console): median ${quantile(rounds.filter((t) => t >= 0), 0.5)} ms a round, ${rounds.filter((t) => t < 0).length} of 25 rounds with a failure`);
  await memoryFigures(path);
  if (failures.length) console.log(`figures: failed: ${failures.join('; ')}`);
}

interface Memory { c: { free: number; minimumFree: number; size: number; heaps: number }; xs: { slots: number; peakSlots: number; maxSlots: number; chunks: number; peakChunks: number; maxChunks: number } }

async function memoryFigures(value: string): Promise<void> {
  const image = process.env.ESP32_FLASH_IMAGE;
  if (!image || !process.env.BOARD_GDB) { console.log('figures: memory not read (no ESP32_FLASH_IMAGE or BOARD_GDB)'); return; }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- an ES module of the tools, shared with the Pico W's reader
  const memory = require(resolve(__dirname, '../../../tools/esp32-emu/board-memory.mjs')) as { esp32MemoryLayout(image: string): unknown; readEsp32Memory(read: (a: number, n: number) => Promise<Buffer>, layout: unknown): Promise<Memory> };
  const layout = memory.esp32MemoryLayout(image);
  const reading = (): Promise<Memory> => withGdb(Number(process.env.BOARD_GDB), (ask) => memory.readEsp32Memory((a, n) => readMemory(ask, a, n), layout));
  await sleep(5000);
  const idle = await reading();
  const xsLine = (m: Memory): string => `${m.xs.slots} of ${m.xs.maxSlots} slots and ${m.xs.chunks} of ${m.xs.maxChunks} B of chunks`;
  console.log(`figures: memory idle: C heap ${idle.c.free} B free of ${idle.c.size} (${idle.c.heaps} heaps, least since boot ${idle.c.minimumFree} B); XS ${xsLine(idle)} allocated (live at its last collection, and since)`);
  let busy = true;
  const clients = (async () => {
    for (let i = 0; i < 25; i++) await Promise.all([value, '/api/v1/openapi.json', '/metrics', '/'].map(get));
    busy = false;
  })();
  const seen: Memory[] = [];
  while (busy) {
    seen.push(await reading());
    await sleep(50);
  }
  await clients;
  // A fall in the slots in use is a collection just before the reading: what it holds is (at most) the live set.
  const collected = seen.filter((m, k) => k > 0 && m.xs.slots < seen[k - 1].xs.slots);
  const most = (ms: Memory[], f: (m: Memory) => number): number => Math.max(...ms.map(f));
  const leastFree = Math.min(...seen.map((m) => m.c.free));
  console.log(`figures: memory under four clients (${seen.length} readings in 25 rounds): C heap at least ${leastFree} B free (${idle.c.free - leastFree} B below idle); XS at most ${most(seen, (m) => m.xs.slots)} slots and ${most(seen, (m) => m.xs.chunks)} B of chunks allocated; after a collection (${collected.length} seen) at most ${most(collected, (m) => m.xs.slots)} slots and ${most(collected, (m) => m.xs.chunks)} B live`);
  const after = await reading();
  console.log(`figures: memory after them: C heap ${after.c.free} B free (least since boot ${after.c.minimumFree} B); XS ${xsLine(after)} allocated`);
}

void main();
