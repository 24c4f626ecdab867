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
import { jsRangesIn } from './board-js.mjs';

const FLASH = 0x10000000, FLASH_SIZE = 2 << 20, SRAM = 0x20000000, SRAM_SIZE = 264 << 10;
const TURN_START = 'modTimersExecute';
// The entries a profiled request's timeline shows (the SDK socket's deliveries and calls, the collector).
const TIMELINE = ['listenerDeliver', 'tcpDeliver', 'xs_listener_read', 'xs_tcp_read', 'xs_tcp_write', 'fxCollect'];
const TIMELINE_MAX = 400;

export class CycleProfile {
  /**
   * `count`: names of functions whose entries are counted (PICO_EMU_COUNT), in `entries`; `callers`:
   * names of functions whose cycles are also told by the function that called them (PICO_EMU_CALLERS;
   * the caller is the one the link register names at the entry, so a leaf's callers are exact); `js`:
   * the image's JavaScript functions ([name, byte code][], board-js.mjs), whose cycles are told too:
   * each cycle of thread mode (no interrupt handler running) counts to the function whose byte code
   * was read last in the same turn of the main loop, the natives it calls included; `jsDetail`: names
   * of JavaScript functions whose cycles are also told by C function (PICO_EMU_JS_DETAIL).
   */
  constructor(sim, elf, count = [], callers = [], js = [], jsDetail = []) {
    this.sim = sim;
    this.mapFunctions(elf);
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
    this.watchJs(core, js, jsDetail);
    const execute = core.executeInstruction.bind(core);
    core.executeInstruction = () => {
      const pc = core.PC;
      if (told.size && told.has(pc)) this.callerOf[told.get(pc)] = this.fnAt((core.LR & ~1) >>> 0);
      if (starts.size && starts.has(pc)) this.entries.set(starts.get(pc), this.entries.get(starts.get(pc)) + 1);
      if (pc === turnPc) {
        this.jsNow = 0;
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
        if (this.jsAt && core.IPSR === 0) {
          this.jsPending[this.jsNow] += cycles;
          const detail = this.jsDetail.get(this.jsNow);
          if (detail) detail.set(fn, (detail.get(fn) ?? 0) + cycles);
        }
        const by = this.byCaller.size ? this.byCaller.get(fn) : undefined;
        if (by) by.set(this.callerOf[fn], (by.get(this.callerOf[fn]) ?? 0) + cycles);
      }
      return cycles;
    };
  }

  /** The ELF's functions, and for each half-word of flash and RAM the index of the one there. */
  mapFunctions(elf) {
    this.fns = namedFunctions(elf);
    this.other = this.fns.length; // cycles outside every named function
    this.flashFn = new Int32Array(FLASH_SIZE >> 1).fill(this.other);
    this.sramFn = new Int32Array(SRAM_SIZE >> 1).fill(this.other);
    this.fns.forEach(([start, end], i) => {
      if (start >= FLASH && end <= FLASH + FLASH_SIZE) this.flashFn.fill(i, (start - FLASH) >> 1, (end - FLASH + 1) >> 1);
      else if (start >= SRAM && end <= SRAM + SRAM_SIZE) this.sramFn.fill(i, (start - SRAM) >> 1, (end - SRAM + 1) >> 1);
    });
  }

  /** While recording, each byte the core reads of a JavaScript function's byte code names the function that runs. */
  watchJs(core, js, jsDetail) {
    this.jsFns = js;
    // 1 + index of each JavaScript function PICO_EMU_JS_DETAIL names (its name ends so) -> Map(C function index -> cycles)
    this.jsDetail = new Map(js.flatMap(([name], i) => (jsDetail.some((d) => name.endsWith(` ${d}`)) ? [[i + 1, new Map()]] : [])));
    this.jsAt = null; // flash offset -> 1 + index in js, found at the first recording
    this.jsNow = 0; // 1 + index of the JavaScript function running; 0: none yet this turn
    this.jsPending = new Float64Array(js.length + 1);
    this.jsKept = new Float64Array(js.length + 1);
    if (!js.length) return;
    const read8 = core.readUint8.bind(core);
    core.readUint8 = (address) => {
      if (this.recording) {
        const o = address - FLASH;
        if (o >= 0 && o < FLASH_SIZE && this.jsAt[o]) this.jsNow = this.jsAt[o];
      }
      return read8(address);
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
    if (this.jsFns.length && !this.jsAt) this.jsAt = jsRangesIn(this.sim.rp2040.flash.subarray(0, FLASH_SIZE), this.jsFns).at;
    for (const by of this.byCaller.values()) by.clear();
    this.pending.fill(0);
    this.kept.fill(0);
    this.jsPending.fill(0);
    this.jsKept.fill(0);
    for (const by of this.jsDetail.values()) by.clear();
    this.timeline = [];
    this.recording = true;
  }

  /** What was recorded since the last keep() counts (called at each answer frame out). */
  keep() {
    for (let i = 0; i < this.pending.length; i++) this.kept[i] += this.pending[i];
    this.pending.fill(0);
    for (let i = 0; i < this.jsPending.length; i++) this.jsKept[i] += this.jsPending[i];
    this.jsPending.fill(0);
  }

  /** The cycles kept by JavaScript function: [name, cycles][], most first ("(no JavaScript yet this turn)": thread mode before any byte code). */
  /** For each PICO_EMU_JS_DETAIL function: [name, [[C function, cycles]]] since begin(), most first. */
  jsDetails() {
    const cName = (i) => this.fns[i]?.[2] ?? '(outside the ELF\'s functions)';
    return [...this.jsDetail].map(([j, by]) => [this.jsFns[j - 1][0], [...by].sort((a, b) => b[1] - a[1]).map(([i, c]) => [cName(i), c])]);
  }

  jsFunctions() {
    const out = [];
    this.jsKept.forEach((c, i) => { if (c) out.push([i ? this.jsFns[i - 1][0] : '(no JavaScript yet this turn)', c]); });
    return out.sort((a, b) => b[1] - a[1]);
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
