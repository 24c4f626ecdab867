// What the emulated board costs, read from the board itself (tools/pico-emu/board-memory.mjs) while
// clients ask it over the TAP link (run.mjs --figures, inside tools/pico-emu/netns.sh: make
// pico-emu-figures). In order: boot to the first answer, idle, four clients at once fetching the
// console page, the OpenAPI document, the description and /metrics, then GETs of one value one after
// another for the CPU cycles each takes. Memory is read every emulated millisecond; a collection by XS
// shows as its slot count falling, and the count right after it is the live set.
// run.mjs --memory-every S prints one reading every S emulated seconds; SIGUSR2 prints one at once.
// PICO_EMU_COUNT=tcp_write,tcp_recved: how many times the firmware entered those functions in the run.
import http from 'node:http';
import { boardSymbols, formatMemory, readBoardMemory, xsMachineOffsets } from './board-memory.mjs';
import { BoardTraffic } from './board-traffic.mjs';
import { CycleProfile } from './board-cycles.mjs';
import { watchPcbs } from './pcb-watch.mjs';

const BOARD = 'http://192.168.77.50';
const VALUE = '/api/v1/device/system/0/serialnumber';
const IDLE_AFTER_MS = 3000; // emulated, after the first answer: the announcements are out by then
const LOAD_ROUNDS = 2;
const GETS = Number(process.env.PICO_EMU_FIGURES_GETS || 15);

/** Readings over a stretch of emulated time. */
class Window {
  /** [slots, chunks, ms] right after the latest collection of the run. */
  static lastLive = null;

  constructor() {
    this.samples = 0;
    this.collections = 0;
    this.minCFree = Infinity;
    this.maxLwip = 0;
    this.maxSlots = 0;
    this.maxChunks = 0;
    this.live = []; // [slots, chunks] right after each collection
    this.last = null;
  }

  add(m) {
    this.samples++;
    this.minCFree = Math.min(this.minCFree, m.c.free);
    this.maxLwip = Math.max(this.maxLwip, m.lwip.used);
    if (m.xs) {
      this.maxSlots = Math.max(this.maxSlots, m.xs.slots);
      this.maxChunks = Math.max(this.maxChunks, m.xs.chunks);
      if (this.last?.xs && m.xs.slots < this.last.xs.slots) {
        this.collections++;
        this.live.push([m.xs.slots, m.xs.chunks]);
        Window.lastLive = [m.xs.slots, m.xs.chunks, m.ms];
      }
    }
    this.last = m;
  }
}

function fetchOnce(pathname, timeoutMs) {
  return new Promise((resolve) => {
    const req = http.get(`${BOARD}${pathname}`, { agent: false, timeout: timeoutMs, headers: { 'Accept-Encoding': 'gzip' } }, (res) => {
      const localPort = res.socket.localPort;
      let bytes = 0;
      res.on('data', (b) => { bytes += b.length; });
      res.on('end', () => {
        const length = res.headers['content-length'];
        resolve({ status: res.statusCode, bytes, localPort, whole: length === undefined || Number(length) === bytes });
      });
      res.on('error', () => resolve({ status: res.statusCode, bytes, localPort, whole: false }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) => resolve({ error: e.message }));
  });
}

const pause = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const n = (x) => Math.round(x).toLocaleString('en-US');

export function watchBoard({ sim, mcu, chip, cdc, image, memoryEvery, figures, stop }) {
  const symbols = boardSymbols(image.replace(/\.uf2$/, '.elf'));
  const offsets = xsMachineOffsets(image);
  const read = () => readBoardMemory(mcu, symbols, offsets);
  const stamp = () => `[${(sim.clock.micros / 1e6).toFixed(3)} s]`;
  const count = (process.env.PICO_EMU_COUNT || '').split(',').filter(Boolean);
  const profile = figures || count.length ? new CycleProfile(sim, image.replace(/\.uf2$/, '.elf'), count) : null;
  const entries = () => (count.length ? `; entries: ${[...profile.entries].map(([f, k]) => `${f} ${k}`).join(', ')}` : '');
  if (process.env.PICO_EMU_PCB_WATCH) watchPcbs(sim, image.replace(/\.uf2$/, '.elf'), stamp);
  process.on('SIGUSR2', () => console.log(`${stamp()} memory: ${formatMemory(read())}${entries()}`));
  if (memoryEvery) {
    const every = Number(memoryEvery) * 1e9;
    const tick = () => {
      console.log(`${stamp()} memory: ${formatMemory(read())}${entries()}`);
      sim.clock.createAlarm(tick).schedule(every);
    };
    sim.clock.createAlarm(tick).schedule(every);
  }
  if (!figures) return;
  let window = new Window();
  let sampling = 0n;
  const sample = () => {
    const t = process.hrtime.bigint();
    const m = read();
    m.ms = sim.clock.micros / 1000;
    window.add(m);
    sampling += process.hrtime.bigint() - t;
    sim.clock.createAlarm(sample).schedule(1e6);
  };
  sim.clock.createAlarm(sample).schedule(1e6);
  const traffic = new BoardTraffic(sim, () => profile.work);
  traffic.attach(chip);
  let servingMs = null, line = '';
  const show = cdc.onSerialData;
  cdc.onSerialData = (bytes) => {
    for (const b of bytes) {
      if (b !== 10) line += String.fromCharCode(b);
      else {
        if (servingMs === null && /REST API on port/.test(line)) servingMs = sim.clock.micros / 1000;
        line = '';
      }
    }
    show(bytes);
  };
  const fresh = () => { const w = window; window = new Window(); return w; };
  const nowMs = () => sim.clock.micros / 1000;
  measure({ traffic, profile, fresh, nowMs, servingMs: () => servingMs })
    .then((lines) => {
      for (const l of lines) console.log(`figures: ${l}`);
      console.log(`figures: reading the memory every emulated ms took ${(Number(sampling) / 1e9).toFixed(1)} s of real time`);
      if (count.length) console.log(`figures: ${entries().slice(2)}`);
      stop('figures printed');
    })
    .catch((e) => stop(`figures failed: ${e.message}`));
}

// Real-time timeouts are long: the emulator runs at 0.01 to 0.3 of real time, with the machine's load.
const LONG = 600000;

/** Ask until the board answers: once a second of real time while it has no address (no ARP answer). */
async function untilAnswered() {
  for (;;) {
    const r = await fetchOnce(VALUE, LONG);
    if (r.status === 200) return r;
    await pause(1000);
  }
}

/** The board idle: its memory, and which functions its main loop polls in (learnt here). */
async function measureIdle({ traffic, profile, fresh, nowMs }, from) {
  while (nowMs() < from + IDLE_AFTER_MS) await pause(200);
  fresh();
  const start = traffic.stamp();
  profile.startLearning();
  while (nowMs() < start.ms + 1000) await pause(200);
  const polling = profile.finishLearning();
  const end = traffic.stamp();
  // What still counts as work on the idle board (its rarer polling): taken off each GET by its duration
  while (nowMs() < end.ms + 500) await pause(200);
  const after = traffic.stamp();
  return {
    polling, now: fresh().last, live: Window.lastLive, // the latest collection before the load
    busy: (end.cycles - start.cycles) / ((end.ms - start.ms) * 125000), work: (after.work - end.work) / (after.ms - end.ms),
  };
}

/** Four clients at once, LOAD_ROUNDS times: the memory meanwhile, and each answer's length. */
async function measureLoad(fresh) {
  const serial = await serialOf();
  const targets = ['/', '/api/v1/openapi.json', `/api/v1/device/${serial}`, '/metrics'];
  const whole = [];
  fresh();
  for (let r = 0; r < LOAD_ROUNDS; r++) {
    const answers = await Promise.all(targets.map((t) => fetchOnce(t, LONG)));
    answers.forEach((a, i) => whole.push(`${targets[i]} ${a.status ?? a.error} ${a.bytes ?? 0} B${a.whole ? '' : ' CUT'}`));
  }
  return { load: fresh(), whole };
}

/** GETS of one value one after another: cycles and time from request in to answer out. */
async function measureGets(traffic, idleWork) {
  const gets = [];
  for (let i = 0; i < GETS; i++) {
    const a = await fetchOnce(VALUE, LONG);
    const x = a.localPort && traffic.get(a.localPort);
    if (a.status !== 200 || !x?.firstIn || !x.lastOut) continue;
    const ms = x.lastOut.ms - x.firstIn.ms;
    const g = { work: x.lastOut.work - x.firstIn.work - idleWork * ms, cycles: x.lastOut.cycles - x.firstIn.cycles, ms, all: x.lastOut.ms - x.syn.ms };
    gets.push(g);
    console.log(`figures: GET ${i + 1}: ${Math.round(g.work)} cycles of work, ${g.cycles} in all, ${g.ms.toFixed(1)} ms`);
  }
  return gets;
}

async function measure(ctx) {
  await untilAnswered();
  const answered = [...ctx.traffic.exchanges.values()].filter((x) => x.lastOut).sort((a, b) => a.lastOut.ms - b.lastOut.ms)[0];
  const idle = await measureIdle(ctx, answered.lastOut.ms);
  const { load, whole } = await measureLoad(ctx.fresh);
  const gets = await measureGets(ctx.traffic, idle.work);
  return table({ servingMs: ctx.servingMs(), answered, idle, load, whole, gets });
}

function table({ servingMs, answered, idle, load, whole, gets }) {
  const xs = idle.now.xs;
  const liveIdle = idle.live;
  const liveLoad = load.live.length ? load.live.reduce((a, b) => (a[0] >= b[0] ? a : b)) : null;
  const works = gets.map((g) => g.work);
  return [
    '',
    '| Emulated Pico W (rp2040js, 125 MHz) | |',
    '|---|---:|',
    `| serving (the server's trace) | ${n(servingMs)} ms after reset |`,
    `| first answer out (a client asking once a second of real time) | ${n(answered.lastOut.ms)} ms after reset (its SYN in at ${n(answered.syn.ms)} ms) |`,
    `| C heap free, idle | ${n(idle.now.c.free)} B (of it ${n(idle.now.c.unclaimed)} B never claimed by malloc) |`,
    `| C heap free, least under 4 clients | ${n(load.minCFree)} B |`,
    `| XS slots, idle: in use / heap | ${n(xs.slots)} / ${n(xs.maxSlots)} (${n(xs.maxSlots - xs.slots)} free) |`,
    `| XS chunks, idle: in use / heap | ${n(xs.chunks)} / ${n(xs.maxChunks)} B (${n(xs.maxChunks - xs.chunks)} B free) |`,
    `| XS live after the last collection before the load: slots, chunks | ${liveIdle ? `${n(liveIdle[0])}, ${n(liveIdle[1])} B (at ${n(liveIdle[2])} ms)` : 'no collection seen'} |`,
    `| XS under 4 clients: most slots, most chunks in use | ${n(load.maxSlots)}, ${n(load.maxChunks)} B (${load.collections} collections) |`,
    `| XS under 4 clients: largest live set after a collection | ${liveLoad ? `${n(liveLoad[0])} slots, ${n(liveLoad[1])} B chunks` : 'no collection seen'} |`,
    `| lwIP heap, most in use under 4 clients | ${n(load.maxLwip)} of 4,000 B |`,
    `| the core busy while idle (cycles run / cycles of emulated time) | ${n(100 * idle.busy)} % |`,
    `| GET of one value, request in to answer out: cycles of work (median of ${gets.length}) | ${n(median(works))} (${n(Math.min(...works))} to ${n(Math.max(...works))}) |`,
    `| the same, every cycle (polling included) | ${n(median(gets.map((g) => g.cycles)))} cycles, ${median(gets.map((g) => g.ms)).toFixed(1)} ms |`,
    `| the same, SYN in to answer out | ${median(gets.map((g) => g.all)).toFixed(1)} ms |`,
    '',
    `answers under load: ${whole.join('; ')}`,
    `idle board, cycles outside the polling functions: ${n(idle.work)} per ms (taken off each GET by its duration)`,
    `the main loop's polling (not work): ${idle.polling.map(([f, share]) => `${f} ${(100 * share).toFixed(0)} %`).join(', ')}`,
  ];
}

async function serialOf() {
  const r = await new Promise((resolve) => {
    http.get(`${BOARD}${VALUE}`, { agent: false }, (res) => {
      let body = '';
      res.on('data', (b) => { body += b; });
      res.on('end', () => resolve(body));
    }).on('error', () => resolve('{}'));
  });
  const value = JSON.parse(r).response?.value;
  return `0x${Number(value).toString(16).toUpperCase()}`;
}
