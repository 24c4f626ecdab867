// Reads the memory of the emulated board from its RAM, without any help from the firmware: newlib's
// malloc arena (the C heap, which the XS heaps and everything else native come from), the XS machine's
// heap counters, and lwIP's own small heap. Where each lives comes from the image's .elf (symbols, by
// arm-none-eabi-nm) and, for the fields of XS's txMachine, from compiling a tiny C file against the
// SDK's headers with the very command the build used for xsMemory.c (its makefile, `make -n`), so the
// offsets are those of the image.
//
// newlib (full malloc, newlib/libc/stdlib/mallocr.c): chunks of [prev_size, size|PREV_INUSE] from
// __malloc_sbrk_base up to `top` (__malloc_av_[2]), each in use when the next one's PREV_INUSE bit is
// set; `top` and the memory sbrk has not handed out yet (pico-sdk's _sbrk: heap_end up to
// __StackLimit) are free. lwIP (src/core/mem.c, MEM_SIZE < 64 KiB): struct mem {u16 next, prev; u8 used}
// headers of 8 bytes chained from ram_heap (aligned to 4) over MEM_SIZE bytes.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const SYMBOLS = {
  gThe: 'gThe', mallocAv: '__malloc_av_', sbrkBase: '__malloc_sbrk_base', maxSbrked: '__malloc_max_sbrked_mem',
  heapEnd: 'heap_end.0', end: 'end', stackLimit: '__StackLimit', ramHeap: 'ram_heap',
};
const FIELDS = ['currentChunksSize', 'peakChunksSize', 'maximumChunksSize', 'currentHeapCount', 'peakHeapCount', 'maximumHeapCount'];
const LWIP_MEM_SIZE = 4000; // build/devices/pico/config/lwipopts_examples_common.h

/** Every symbol of `elf` (by `nm`, the target's): name -> address. */
export function elfSymbols(elf, nm = 'arm-none-eabi-nm') {
  const table = new Map();
  for (const line of execFileSync(nm, [elf], { encoding: 'utf8', maxBuffer: 64 << 20 }).split('\n')) {
    const [addr, , name] = line.split(' ');
    if (name) table.set(name, parseInt(addr, 16));
  }
  return table;
}

/** The addresses of SYMBOLS in `elf`. */
export function boardSymbols(elf) {
  const table = elfSymbols(elf);
  const out = {};
  for (const [key, name] of Object.entries(SYMBOLS)) {
    if (!table.has(name)) throw new Error(`${elf}: no symbol ${name}`);
    out[key] = table.get(name);
  }
  return out;
}

/** The makefile mcconfig wrote for the image: <build>/tmp/pico/<board>/<config>/<app>/makefile. */
function buildMakefile(image) {
  const file = path.join(path.dirname(image).replace(/\/bin\/pico\//, '/tmp/pico/'), 'makefile');
  if (!fs.existsSync(file)) throw new Error(`no build makefile at ${file} (the image's build directory)`);
  return file;
}

/** Offsets of FIELDS in txMachine (and the size of a slot), as the image's build compiles them. */
export function xsMachineOffsets(image) {
  const gcc = execFileSync('sh', ['-c', 'command -v arm-none-eabi-gcc'], { encoding: 'utf8' }).trim();
  return machineOffsets(buildMakefile(image), [`PICO_GCC_ROOT=${path.dirname(path.dirname(gcc))}`]);
}

/** The same from the makefile mcconfig wrote for any build (the ESP32's too), with `makeArgs` for its make. */
export function machineOffsets(makefile, makeArgs = []) {
  const text = fs.readFileSync(makefile, 'utf8');
  const xsDir = /^XS_DIR = (.*)$/m.exec(text)?.[1];
  const libDir = /^LIB_DIR = (.*)$/m.exec(text)?.[1];
  const source = path.join(xsDir, 'sources/xsMemory.c');
  const dry = execFileSync('make', ['-n', '-W', source, '-f', makefile, `${libDir}/xsMemory.c.o`, 'SHELL=/bin/bash', ...makeArgs],
    { cwd: path.dirname(makefile), encoding: 'utf8' });
  const command = dry.split('\n').find((l) => l.includes(`${source} -o`));
  if (!command) throw new Error(`${makefile}: no compile command for xsMemory.c`);
  const exprs = Object.fromEntries(FIELDS.map((f) => [f, `offsetof(txMachine, ${f})`]));
  return probeConstants({ command, from: `${source} -o ${libDir}/xsMemory.c.o` }, ['xsAll.h'], { ...exprs, slot: 'sizeof(txSlot)' });
}

/** Values of C constant expressions (offsetof, sizeof) as a build's compiler sees them: a probe including
 * `includes`, compiled to assembly by a build's `command` (run in `cwd`) with its part naming the source
 * and object (`from`, with its -c) replaced by the probe's. */
export function probeConstants({ command, from, cwd }, includes, exprs) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'board-offsets-'));
  try {
    const probe = path.join(dir, 'offsets.c');
    fs.writeFileSync(probe, [...includes.map((h) => `#include "${h}"`), '#include <stddef.h>',
      ...Object.entries(exprs).map(([name, e]) => `__attribute__((used)) const unsigned int off_${name} = ${e};`), ''].join('\n'));
    const asm = path.join(dir, 'offsets.s');
    if (!command.includes(from)) throw new Error(`no "${from}" in the compile command`);
    execFileSync('bash', ['-c', command.replace(from, `-S ${probe} -o ${asm}`).replace(/ -c(?= )/, '')], { cwd });
    const out = {};
    for (const m of fs.readFileSync(asm, 'utf8').matchAll(/^off_(\w+):\s*\n\s*\.(word|space|zero)\s+(\d+)/gm)) {
      out[m[1]] = m[2] === 'word' ? Number(m[3]) : 0; // a zero is `.space 4` (arm) or `.zero 4` (xtensa)
    }
    for (const name of Object.keys(exprs)) if (out[name] === undefined) throw new Error(`no value for ${name} (${exprs[name]})`);
    return out;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** newlib's arena: bytes in use and free (free chunks, top, and what sbrk has left below the stack). */
function cHeap(mcu, s) {
  const r = (a) => mcu.readUint32(a);
  const top = r(s.mallocAv + 8);
  const base = r(s.sbrkBase);
  const heapEnd = r(s.heapEnd) || s.end;
  let used = 0, freeChunks = 0, chunks = 0, largest = 0;
  if (base !== 0xffffffff) {
    for (let p = (base + 7) & ~7; p < top && chunks < 100000; chunks++) {
      const size = r(p + 4) & ~7;
      if (size < 16) break; // not a chunk: stop rather than walk garbage
      if (r(p + size + 4) & 1) used += size;
      else {
        freeChunks += size;
        largest = Math.max(largest, size);
      }
      p += size;
    }
  }
  const topSize = base === 0xffffffff ? 0 : r(top + 4) & ~7;
  const unclaimed = s.stackLimit - heapEnd;
  // the largest block malloc can give without a new chunk: a free chunk, or the top with what sbrk has left
  largest = Math.max(largest, topSize + unclaimed);
  return { used, free: freeChunks + topSize + unclaimed, freeChunks, top: topSize, unclaimed, chunks, largest, peakSbrked: r(s.maxSbrked) };
}

/** lwIP's heap (pbufs of segments in flight): bytes in use. */
function lwipHeap(mcu, s) {
  const ram = (s.ramHeap + 3) & ~3;
  let used = 0;
  for (let p = 0, n = 0; p < LWIP_MEM_SIZE && n < 1000; n++) {
    const next = mcu.readUint16(ram + p);
    if (next <= p || next > LWIP_MEM_SIZE) break;
    if (mcu.readUint8(ram + p + 4)) used += next - p - 8;
    p = next;
  }
  return { used, size: LWIP_MEM_SIZE };
}

/** XS's counters: slots and chunk bytes in use (live at the last collection plus allocated since), peak, heap size. */
function xsHeap(mcu, s, o) {
  const the = mcu.readUint32(s.gThe);
  if (!the) return null;
  const f = (name) => mcu.readUint32(the + o[name]);
  return {
    slots: f('currentHeapCount'), peakSlots: f('peakHeapCount'), maxSlots: f('maximumHeapCount'),
    chunks: f('currentChunksSize'), peakChunks: f('peakChunksSize'), maxChunks: f('maximumChunksSize'), slotSize: o.slot,
  };
}

/** One reading of the board's memory (with xsOnly, XS's counters alone: cheap enough to read every emulated second). */
export function readBoardMemory(mcu, symbols, offsets, { xsOnly = false } = {}) {
  if (xsOnly) return { xs: xsHeap(mcu, symbols, offsets) };
  return { c: cHeap(mcu, symbols), xs: xsHeap(mcu, symbols, offsets), lwip: lwipHeap(mcu, symbols) };
}

/** One line for the console. */
export function formatMemory(m) {
  const c = `C heap ${m.c.used} B used, ${m.c.free} B free (${m.c.chunks} chunks)`;
  const x = m.xs ? `XS ${m.xs.slots}/${m.xs.maxSlots} slots (peak ${m.xs.peakSlots}), ${m.xs.chunks}/${m.xs.maxChunks} B chunks (peak ${m.xs.peakChunks})` : 'XS not started';
  return `${c}; ${x}; lwIP heap ${m.lwip.used}/${m.lwip.size} B`;
}
