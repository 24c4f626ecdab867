// What a soak (soak.mjs) sees of the emulated board itself, without the firmware's help: its console
// (each boot's serving line and cause, each SNTP correction), flash erases (flash-rom.mjs), its memory
// read from RAM (board-memory.mjs, lwip-pools.mjs) and the watchdog's feeds (a write of its LOAD
// register, pico-sdk's watchdog_update).
//
// XS's counters are read every emulated second, so that the count right after a collection (a fall in
// the slots in use) is caught. The live set after a collection depends on what a client had in flight
// at that moment; the least of an hour's forty-odd is the board's own, which a leak raises.
import { boardSymbols, readBoardMemory, xsMachineOffsets } from './board-memory.mjs';
import { poolsOf, readPools } from './lwip-pools.mjs';
import { flashLog } from './flash-rom.mjs';
import { watchdogOf } from './chip-reset.mjs';

export class BoardWatch {
  /** @param now emulated seconds since power-on; onLine(fn): fn gets each console line */
  constructor({ sim, image, onLine, now }) {
    this.sim = sim;
    this.now = now;
    const elf = image.replace(/\.uf2$/, '.elf');
    this.symbols = boardSymbols(elf);
    this.offsets = xsMachineOffsets(image);
    this.pools = poolsOf(elf);
    this.boots = [];
    this.syncs = [];
    this.lastSyncAt = -Infinity;
    this.erases = [];
    this.xs = { last: null, live: null, least: null, collections: 0 };
    this.feeds = { dog: null, last: null, count: 0, longestMs: 0 };
    onLine((line) => this.line(line));
    flashLog.onErase = (offset, bytes) => this.erases.push({ at: Math.round(now()), offset, sectors: Math.ceil(bytes / 4096) });
    this.watchFeeds();
  }

  line(text) {
    const started = /^REST API on port \d+, serial \S+, started by (\w+)/.exec(text);
    if (started) this.boots.push({ at: Math.round(this.now()), cause: started[1] });
    const set = /^SNTP: clock set \(([+-]?\d+) ms\)/.exec(text);
    if (set) {
      this.syncs.push({ at: Math.round(this.now()), stepMs: Number(set[1]) });
      this.lastSyncAt = this.now();
    }
  }

  /** Hooks the running chip's watchdog (a watchdog reset makes a new chip). */
  watchFeeds() {
    const f = this.feeds;
    const dog = watchdogOf(this.sim.rp2040);
    if (dog === f.dog) return;
    f.dog = dog;
    f.last = null;
    const write = dog.writeUint32.bind(dog);
    dog.writeUint32 = (offset, value) => {
      if (offset === 4) { // LOAD: a feed
        const t = this.now();
        if (f.last !== null) f.longestMs = Math.max(f.longestMs, Math.round((t - f.last) * 1000));
        f.last = t;
        f.count++;
      }
      write(offset, value);
    };
  }

  /** Every emulated second: XS's counters, and the watchdog of the chip that runs. */
  sample() {
    this.watchFeeds();
    const x = this.xs;
    const m = readBoardMemory(this.sim.rp2040, this.symbols, this.offsets, { xsOnly: true });
    if (m.xs && x.last && m.xs.slots < x.last.slots) {
      x.collections++;
      x.live = { slots: m.xs.slots, chunks: m.xs.chunks };
      x.least = { slots: Math.min(x.least?.slots ?? Infinity, m.xs.slots), chunks: Math.min(x.least?.chunks ?? Infinity, m.xs.chunks) };
    }
    x.last = m.xs;
  }

  /** The memory part of an hourly record; the hour's least live set and feeds start again. */
  hour() {
    const m = readBoardMemory(this.sim.rp2040, this.symbols, this.offsets);
    const { xs, feeds } = this;
    const reading = {
      cFree: m.c.free, cLargest: m.c.largest, xsSlots: xs.live?.slots ?? null, xsChunks: xs.live?.chunks ?? null, xsCollections: xs.collections,
      xsLeastSlots: xs.least?.slots ?? null, xsLeastChunks: xs.least?.chunks ?? null,
      xsPeakSlots: m.xs?.peakSlots ?? null, xsPeakChunks: m.xs?.peakChunks ?? null,
      lwipHeap: m.lwip.used, pools: readPools(this.sim.rp2040, this.pools),
      erasedSectors: this.erases.reduce((n, e) => n + e.sectors, 0), boots: this.boots.length,
      feeds: feeds.count, longestFeedGapMs: feeds.longestMs,
    };
    xs.least = null;
    feeds.count = 0;
    feeds.longestMs = 0;
    return reading;
  }
}
