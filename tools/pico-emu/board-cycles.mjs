// Where the emulated board's cycles go (make pico-emu-figures): every instruction's cycles are added to
// the function of the ELF it belongs to (board-parts.mjs names them and their parts), while a stretch is
// being recorded; and the main loop's turns are timed, for the cycles of work.
//
// The SDK's Pico main loop never sleeps: modMessageService (xs/platforms/pico/xsHost.c) leaves its wait
// at once, because it compares absolute_time_diff_us(until, now) < 1000, which holds while `until` is
// still ahead, so the core polls (timers, cyw43_arch_poll, the message queue) at full speed; the module's
// image sleeps there instead (native/main-loop/message-wait-pico.c), and a sleeping core runs no cycles.
// A turn of the loop starts where it calls modTimersExecute. While the board is idle the turns are
// learnt (their mean length); from then on each turn's cycles beyond that mean are work, and a turn
// shorter than the mean adds nothing: the cycles of work never fall below zero, and include the
// interrupts that came in.
import { backtrace } from './backtrace.mjs';
import { namedFunctions } from './board-parts.mjs';

const FLASH = 0x10000000, FLASH_SIZE = 2 << 20, SRAM = 0x20000000, SRAM_SIZE = 264 << 10;
const TURN_START = 'modTimersExecute';
// The entries a profiled request's timeline shows (the SDK socket's deliveries and calls, the collector).
const TIMELINE = ['listenerDeliver', 'tcpDeliver', 'xs_listener_read', 'xs_tcp_read', 'xs_tcp_write', 'fxCollect'];
const TIMELINE_MAX = 400;

export class CycleProfile {
  /**
   * `count`: names of functions whose entries are counted (PICO_EMU_COUNT), in `entries`; `callers`:
   * names of functions whose cycles are also told by the function that called them (PICO_EMU_CALLERS;
   * the caller is the one the link register names at the entry, so a leaf's callers are exact).
   */
  constructor(sim, elf, count = [], callers = []) {
    this.sim = sim;
    this.fns = namedFunctions(elf);
    this.other = this.fns.length; // cycles outside every named function
    this.flashFn = new Int32Array(FLASH_SIZE >> 1).fill(this.other);
    this.sramFn = new Int32Array(SRAM_SIZE >> 1).fill(this.other);
    this.fns.forEach(([start, end], i) => {
      if (start >= FLASH && end <= FLASH + FLASH_SIZE) this.flashFn.fill(i, (start - FLASH) >> 1, (end - FLASH + 1) >> 1);
      else if (start >= SRAM && end <= SRAM + SRAM_SIZE) this.sramFn.fill(i, (start - SRAM) >> 1, (end - SRAM + 1) >> 1);
    });
    this.pending = new Float64Array(this.other + 1);
    this.kept = new Float64Array(this.other + 1);
    this.recording = false;
    this.entries = new Map(count.map((name) => [name, 0]));
    const starts = new Map(this.fns.filter(([, , name]) => this.entries.has(name)).map(([start, , name]) => [start, name]));
    const turnPc = this.fns.find(([, , name]) => name === TURN_START)?.[0];
    const marked = new Map(this.fns.filter(([, , name]) => TIMELINE.includes(name)).map(([start, , name]) => [start, name]));
    this.timeline = [];
    // fn index -> the caller's fn index at its last entry; fn index -> Map(caller index -> cycles)
    const told = new Map(this.fns.map(([start], i) => [start, i]).filter(([, i]) => callers.includes(this.fns[i][2])));
    this.callerOf = new Int32Array(this.other + 1).fill(this.other);
    this.byCaller = new Map([...told.values()].map((i) => [i, new Map()]));
    this.work = 0;
    this.idleTurn = null; // mean cycles of an idle turn, once learnt
    this.turns = null; // while learning: each turn's cycles
    let turnAt = 0;
    const core = sim.rp2040.core;
    const execute = core.executeInstruction.bind(core);
    core.executeInstruction = () => {
      const pc = core.PC;
      if (told.size && told.has(pc)) this.callerOf[told.get(pc)] = this.fnAt((core.LR & ~1) >>> 0);
      if (starts.size && starts.has(pc)) this.entries.set(starts.get(pc), this.entries.get(starts.get(pc)) + 1);
      if (pc === turnPc) {
        const turn = core.cycles - turnAt;
        turnAt = core.cycles;
        if (this.turns) this.turns.push(turn);
        else if (this.idleTurn !== null && turn > this.idleTurn) this.work += turn - this.idleTurn;
        // the timeline shows the end of a busy turn (over twice the idle mean)
        const busy = this.idleTurn !== null && turn > 2 * this.idleTurn;
        if (this.recording && busy) this.mark(`a busy turn of ${turn} cycles ends`);
      } else if (this.recording && marked.has(pc)) this.mark(marked.get(pc));
      let cycles;
      try {
        cycles = execute();
      } catch (e) {
        // rp2040js throws where the chip would fault (an unaligned access): where, in the image's names
        console.log(`pico-emu: ${e.message} at pc 0x${pc.toString(16)}; backtrace:`);
        for (const l of backtrace(sim.rp2040, elf)) console.log(l);
        throw e;
      }
      if (this.recording) {
        const fn = this.fnAt(pc);
        this.pending[fn] += cycles;
        const by = this.byCaller.size ? this.byCaller.get(fn) : undefined;
        if (by) by.set(this.callerOf[fn], (by.get(this.callerOf[fn]) ?? 0) + cycles);
      }
      return cycles;
    };
  }

  fnAt(pc) {
    if (pc >= FLASH && pc < FLASH + FLASH_SIZE) return this.flashFn[(pc - FLASH) >> 1];
    if (pc >= SRAM && pc < SRAM + SRAM_SIZE) return this.sramFn[(pc - SRAM) >> 1];
    return this.other;
  }

  /** A line of the recorded request's timeline, at the emulated time now. */
  mark(what) {
    if (this.timeline.length < TIMELINE_MAX) this.timeline.push([this.sim.clock.micros / 1000, what]);
  }

  /** Start recording cycles by function (anything recorded and not kept is dropped). */
  begin() {
    for (const by of this.byCaller.values()) by.clear();
    this.pending.fill(0);
    this.kept.fill(0);
    this.timeline = [];
    this.recording = true;
  }

  /** What was recorded since the last keep() counts (called at each answer frame out). */
  keep() {
    for (let i = 0; i < this.pending.length; i++) this.kept[i] += this.pending[i];
    this.pending.fill(0);
  }

  /** Stop recording: the cycles kept, as [name, part, cycles][] of the functions that ran. */
  end() {
    this.recording = false;
    const out = [];
    this.kept.forEach((c, i) => { if (c) out.push([this.fns[i]?.[2] ?? '(outside the ELF\'s functions)', this.fns[i]?.[3] ?? 'other', c]); });
    return out.sort((a, b) => b[2] - a[2]);
  }

  /** The cycles of each PICO_EMU_CALLERS function since begin(), by caller: [name, [[caller, cycles]]][]. */
  callers() {
    const name = (i) => this.fns[i]?.[2] ?? '(outside the ELF\'s functions)';
    return [...this.byCaller].map(([fn, by]) => [name(fn), [...by].sort((a, b) => b[1] - a[1]).map(([c, cycles]) => [name(c), cycles])]);
  }

  /** Learn the idle board: its turns and where its cycles go, until finishLearning(). */
  startLearning() {
    this.turns = [];
    this.begin();
  }

  /** The idle turn is known: work counts from now on. Returns the idle board's profile and turns. */
  finishLearning() {
    this.keep();
    const idle = this.end();
    const turns = this.turns;
    this.turns = null;
    this.idleTurn = turns.length ? turns.reduce((a, b) => a + b, 0) / turns.length : 0;
    return { idle, turns: turns.length, meanTurn: this.idleTurn };
  }
}
