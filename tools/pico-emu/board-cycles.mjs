// Tells the core's work from its waiting. The Pico build's main loop never sleeps: modMessageService
// (xs/platforms/pico/xsHost.c) leaves its wait at once, because it compares absolute_time_diff_us(until,
// now) < 1000, which holds while `until` is still ahead, so the core polls (timers, cyw43_arch_poll,
// the message queue) at full speed and rp2040js's cycle count runs with the emulated clock. What the
// loop does while the board is idle is learnt by sampling the program counter over a stretch of idle
// time: the functions that hold at least IDLE_SHARE of the samples are the polling. From then on every
// instruction's cycles count as work unless its address lies in one of those functions.
import { execFileSync } from 'node:child_process';
import { backtrace } from './backtrace.mjs';

const IDLE_SHARE = 0.01;
const SAMPLE_NANOS = 50_000; // one PC sample every 50 µs of emulated time while learning
const FLASH = 0x10000000, FLASH_SIZE = 2 << 20, SRAM = 0x20000000, SRAM_SIZE = 264 << 10;

/** Functions of the image, sorted by address: [start, end, name]. */
function functionsOf(elf) {
  const out = [];
  for (const line of execFileSync('arm-none-eabi-nm', ['-S', '--defined-only', elf], { encoding: 'utf8', maxBuffer: 64 << 20 }).split('\n')) {
    const [addr, size, type, name] = line.split(' ');
    if (name && /^[tTwW]$/.test(type)) {
      const start = parseInt(addr, 16) & ~1;
      out.push([start, start + parseInt(size, 16), name]);
    }
  }
  return out.sort((a, b) => a[0] - b[0]);
}

function find(fns, pc) {
  let lo = 0, hi = fns.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (pc < fns[mid][0]) hi = mid - 1;
    else if (pc >= fns[mid][1]) lo = mid + 1;
    else return mid;
  }
  return -1;
}

export class CycleProfile {
  /** `count`: names of functions whose entries are counted (PICO_EMU_COUNT), in `entries`. */
  constructor(sim, elf, count = []) {
    this.sim = sim;
    this.fns = functionsOf(elf);
    this.entries = new Map(count.map((name) => [name, 0]));
    const starts = new Map(this.fns.filter(([, , name]) => this.entries.has(name)).map(([start, , name]) => [start, name]));
    this.flashIdle = new Uint8Array(FLASH_SIZE >> 1);
    this.sramIdle = new Uint8Array(SRAM_SIZE >> 1);
    this.work = 0;
    this.counting = false;
    this.samples = null;
    this.polling = [];
    const core = sim.rp2040.core;
    const execute = core.executeInstruction.bind(core);
    core.executeInstruction = () => {
      const pc = core.PC;
      if (starts.size && starts.has(pc)) this.entries.set(starts.get(pc), this.entries.get(starts.get(pc)) + 1);
      let cycles;
      try {
        cycles = execute();
      } catch (e) {
        // rp2040js throws where the chip would fault (an unaligned access): where, in the image's names
        console.log(`pico-emu: ${e.message} at pc 0x${pc.toString(16)}; backtrace:`);
        for (const l of backtrace(sim.rp2040, elf)) console.log(l);
        throw e;
      }
      if (this.counting && !this.idleAt(pc)) this.work += cycles;
      return cycles;
    };
  }

  idleAt(pc) {
    if (pc >= FLASH && pc < FLASH + FLASH_SIZE) return this.flashIdle[(pc - FLASH) >> 1] === 1;
    if (pc >= SRAM && pc < SRAM + SRAM_SIZE) return this.sramIdle[(pc - SRAM) >> 1] === 1;
    return false;
  }

  /** Sample the PC while the board is idle. */
  startLearning() {
    this.samples = new Map();
    this.total = 0;
    const sample = () => {
      if (!this.samples) return;
      const i = find(this.fns, this.sim.rp2040.core.PC);
      this.samples.set(i, (this.samples.get(i) ?? 0) + 1);
      this.total++;
      this.sim.clock.createAlarm(sample).schedule(SAMPLE_NANOS);
    };
    this.sim.clock.createAlarm(sample).schedule(SAMPLE_NANOS);
  }

  /** The polling functions are known: count work from now on. Returns them, with their share of idle time. */
  finishLearning() {
    const samples = this.samples;
    this.samples = null;
    for (const [i, count] of samples) {
      if (i < 0 || count < this.total * IDLE_SHARE) continue;
      const [start, end, name] = this.fns[i];
      const map = start >= SRAM ? this.sramIdle : this.flashIdle;
      const base = start >= SRAM ? SRAM : FLASH;
      map.fill(1, (start - base) >> 1, (end - base + 1) >> 1);
      this.polling.push([name, count / this.total]);
    }
    this.polling.sort((a, b) => b[1] - a[1]);
    this.counting = true;
    return this.polling;
  }
}
