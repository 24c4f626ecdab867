// What the emulated board costs, read from the board itself (tools/pico-emu/board-memory.mjs) while
// clients ask it over the TAP link (run.mjs --figures, inside tools/pico-emu/netns.sh: make
// pico-emu-figures). The requests and their order are board-runs.mjs's: the module's, or with
// --anchor those of tools/pico-anchor's two servers. Memory is read every emulated millisecond; a
// collection by XS shows as its slot count falling, and the count right after it is the live set.
// run.mjs --memory-every S prints one reading every S emulated seconds; SIGUSR2 prints one at once.
// PICO_EMU_COUNT=tcp_write,tcp_recved: how many times the firmware entered those functions in the run.
// PICO_EMU_CALLERS=memcpy,espRead8: each profiled request also tells those functions' cycles by their caller.
// PICO_EMU_JS_DETAIL=takeWholeHead,drain: each profiled request also tells those JavaScript functions' cycles by C function.
import fs from 'node:fs';
import { boardSymbols, formatMemory, readBoardMemory, xsMachineOffsets } from './board-memory.mjs';
import { BoardTraffic } from './board-traffic.mjs';
import { CycleProfile } from './board-cycles.mjs';
import { jsFunctionsOf, machineSourceOf } from './board-js.mjs';
import { watchPcbs } from './pcb-watch.mjs';
import { measureAnchor, measureModule } from './board-runs.mjs';

// Emulated, after the first answer: the module's announcements are out by then; the anchor makes none.
const IDLE_AFTER_MS = 3000, ANCHOR_IDLE_AFTER_MS = 500;
/** How long the idle board is watched: an idle module turns its loop about once a second, so 1 s tells little. */
const IDLE_WINDOW_MS = 10000;

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

const pause = (ms) => new Promise((r) => setTimeout(r, ms));
const n = (x) => Math.round(x).toLocaleString('en-US');

const names = (variable) => (process.env[variable] || '').split(',').filter(Boolean);

/** The cycle profile of the board (board-cycles.mjs), with the image's JavaScript functions when its build folder still holds the XS linker's mc.xs.c. */
function profileOf(sim, image, figures, count) {
  const source = machineSourceOf(image);
  const js = figures && fs.existsSync(source) ? jsFunctionsOf(source) : [];
  return new CycleProfile(sim, image.replace(/\.uf2$/, '.elf'), count, names('PICO_EMU_CALLERS'), js, names('PICO_EMU_JS_DETAIL'));
}

export function watchBoard({ sim, mcu, chip, cdc, image, memoryEvery, figures, anchor, stop }) {
  const symbols = boardSymbols(image.replace(/\.uf2$/, '.elf'));
  const offsets = xsMachineOffsets(image);
  const read = () => readBoardMemory(mcu, symbols, offsets);
  const stamp = () => `[${(sim.clock.micros / 1e6).toFixed(3)} s]`;
  const count = names('PICO_EMU_COUNT');
  const profile = figures || count.length ? profileOf(sim, image, figures, count) : null;
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
  const traffic = new BoardTraffic(sim, () => profile.work, [80, 81]);
  traffic.attach(chip);
  let servingMs = null, line = '';
  const show = cdc.onSerialData;
  cdc.onSerialData = (bytes) => {
    for (const b of bytes) {
      if (b !== 10) line += String.fromCharCode(b);
      else {
        if (servingMs === null && /REST API on port|anchor: SDK http Server/.test(line)) servingMs = sim.clock.micros / 1000;
        line = '';
      }
    }
    show(bytes);
  };
  const fresh = () => { const w = window; window = new Window(); return w; };
  const nowMs = () => sim.clock.micros / 1000;
  const ctx = { traffic, profile, fresh, nowMs, anchor, servingMs: () => servingMs, measureIdle, memoryTable };
  (anchor ? measureAnchor : measureModule)(ctx)
    .then((lines) => {
      for (const l of lines) console.log(`figures: ${l}`);
      console.log(`figures: reading the memory every emulated ms took ${(Number(sampling) / 1e9).toFixed(1)} s of real time`);
      if (count.length) console.log(`figures: ${entries().slice(2)}`);
      stop('figures printed');
    })
    .catch((e) => stop(`figures failed: ${e.message}`));
}

/** The board idle: its memory, its main loop's turns and where its cycles go (learnt here). */
async function measureIdle({ traffic, profile, fresh, nowMs, anchor }, from) {
  while (nowMs() < from + (anchor ? ANCHOR_IDLE_AFTER_MS : IDLE_AFTER_MS)) await pause(200);
  fresh();
  const start = traffic.stamp();
  profile.startLearning();
  while (nowMs() < start.ms + IDLE_WINDOW_MS) await pause(200);
  const learnt = profile.finishLearning();
  const end = traffic.stamp();
  const seconds = (end.ms - start.ms) / 1000;
  return {
    ...learnt, now: fresh().last, live: Window.lastLive, // the latest collection before the load
    busy: (end.cycles - start.cycles) / ((end.ms - start.ms) * 125000),
    turnsPerSecond: learnt.turns / seconds,
    cyclesPerSecond: (end.cycles - start.cycles) / seconds,
  };
}

/** The module's memory and boot, idle and under four clients fetching its documents. */
function memoryTable({ servingMs, answered, idle, load }) {
  const xs = idle.now.xs;
  const liveIdle = idle.live;
  const liveLoad = load.live.length ? load.live.reduce((a, b) => (a[0] >= b[0] ? a : b)) : null;
  return [
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
    `| the core busy while idle (cycles run / cycles of emulated time) | ${(100 * idle.busy).toFixed(3)} % |`,
    `| the main loop idle (${IDLE_WINDOW_MS / 1000} s watched): turns a second, cycles a turn (mean) | ${idle.turnsPerSecond.toFixed(1)}, ${n(idle.meanTurn)} |`,
    `| cycles run in an idle second | ${n(idle.cyclesPerSecond)} |`,
  ];
}
