// The emulated ESP32's memory as ESP-IDF and XS count it, read through QEMU's gdbstub without any help
// from the firmware (make esp32-emu-figures). ESP-IDF's heaps are the list `registered_heaps` of heap_t
// (components/heap/heap_private.h:27: caps[3], start, end, lock, `heap`, next); each `heap` is a
// multi_heap_info (components/heap/multi_heap.c:85: lock, free_bytes, minimum_free_bytes, pool_size,
// heap_data). Summed over the heaps whose caps hold MALLOC_CAP_DEFAULT, as heap_caps_get_free_size and
// heap_caps_get_minimum_free_size do (heap_caps.c): what malloc can still give, and the least it could
// since boot. XS's counters come from the machine `gThe` (the fixed heap of the ESP32 build). Where
// each field lives comes from the image's .elf and from compiling a probe with the build's own commands
// (ESP-IDF's compile_commands.json for heap_caps.c, mcconfig's makefile for xsMemory.c).
import fs from 'node:fs';
import path from 'node:path';
import { elfSymbols, machineOffsets, probeConstants } from '../pico-emu/board-memory.mjs';

const MALLOC_CAP_DEFAULT = 1 << 12; // components/heap/include/esp_heap_caps.h
const MULTI_HEAP = { freeBytes: 4, minimumFreeBytes: 8, poolSize: 12 }; // multi_heap.c:85, 32-bit fields

/** Where to read, for the flash image `image` (…/bin/esp32/qemu/release/APP/xs_esp32-flash.bin of its build folder). */
export function esp32MemoryLayout(image) {
  const elf = path.join(path.dirname(image), 'xs_esp32.elf');
  const tmp = path.dirname(image).replace(/\/bin\/esp32\//, '/tmp/esp32/');
  const commands = JSON.parse(fs.readFileSync(path.join(tmp, 'xsProj-esp32/build/compile_commands.json'), 'utf8'));
  const heapCaps = commands.find((c) => c.file.endsWith('/components/heap/heap_caps.c'));
  if (!heapCaps) throw new Error(`${tmp}: no compile command for heap_caps.c`);
  const from = /-o \S+ -c \S+heap_caps\.c/.exec(heapCaps.command)?.[0];
  const heapT = probeConstants({ command: heapCaps.command, from, cwd: heapCaps.directory },
    [path.join(path.dirname(heapCaps.file), 'heap_private.h')],
    { caps: 'offsetof(heap_t, caps)', heap: 'offsetof(heap_t, heap)', next: 'offsetof(heap_t, next)', prios: 'SOC_MEMORY_TYPE_NO_PRIOS' });
  const table = elfSymbols(elf, 'xtensa-esp32-elf-nm');
  const symbols = { registeredHeaps: table.get('registered_heaps'), gThe: table.get('gThe') };
  for (const [k, v] of Object.entries(symbols)) if (v === undefined) throw new Error(`${elf}: no symbol for ${k}`);
  return { symbols, heapT, xs: machineOffsets(path.join(tmp, 'makefile')) };
}

/** One reading with `read(address, length)` (a Buffer): the C heap and XS's heap. */
export async function readEsp32Memory(read, layout) {
  const u32 = async (a) => (await read(a, 4)).readUInt32LE(0);
  const { heapT, xs } = layout;
  const c = { free: 0, minimumFree: 0, size: 0, heaps: 0 };
  for (let h = await u32(layout.symbols.registeredHeaps); h && c.heaps < 64; h = await u32(h + heapT.next)) {
    let caps = 0;
    for (let k = 0; k < heapT.prios; k++) caps |= await u32(h + heapT.caps + 4 * k);
    const info = await u32(h + heapT.heap);
    if (!(caps & MALLOC_CAP_DEFAULT) || !info) continue;
    c.free += await u32(info + MULTI_HEAP.freeBytes);
    c.minimumFree += await u32(info + MULTI_HEAP.minimumFreeBytes);
    c.size += await u32(info + MULTI_HEAP.poolSize);
    c.heaps++;
  }
  const the = await u32(layout.symbols.gThe);
  const field = (name) => u32(the + xs[name]);
  const x = the ? {
    slots: await field('currentHeapCount'), peakSlots: await field('peakHeapCount'), maxSlots: await field('maximumHeapCount'),
    chunks: await field('currentChunksSize'), peakChunks: await field('peakChunksSize'), maxChunks: await field('maximumChunksSize'),
  } : null;
  return { c, xs: x };
}
