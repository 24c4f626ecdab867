// Watches the emulated Pico W for the two races of lwIP's interrupt (PICO_EMU_RACE_WATCH=1, run.mjs):
// - the allocator entered by an interrupt while the code it interrupted is inside newlib's heap work:
//   at the entry of malloc, free, realloc, calloc (the __wrap_ ones, newlib's and its _r forms) in one
//   context (thread mode or an exception number), another context is between the return of its
//   __malloc_lock and its call of __malloc_unlock (newlib's mallocr.c changes the heap's lists there);
// - an lwIP call outside the async context's lock: at the entry of an lwIP function (named below), the
//   recursive mutex of pico-sdk's threadsafe_background context (cyw43_async_context_threadsafe_background,
//   its lock_mutex at byte 48: async_context_threadsafe_background.h) has an enter count of 0.
// Each is printed once per place ("race-watch: …" with the backtrace); the summary at the end counts them.
// Addresses come from the image's ELF (arm-none-eabi-nm).
import { execFileSync } from 'node:child_process';
import { backtrace } from './backtrace.mjs';

const ALLOCATOR = ['malloc', 'free', 'realloc', 'calloc', '__wrap_malloc', '__wrap_free', '__wrap_realloc', '__wrap_calloc',
  '_malloc_r', '_free_r', '_realloc_r', '_calloc_r'];
/** lwIP's functions, by name: its modules' prefixes, less the helpers that only read what the caller owns. */
const LWIP = /^(tcp|udp|raw|pbuf|igmp|dns|netif|dhcp|etharp|icmp|ethernet|mem|memp|ip4|sys_check)_/;
const LWIP_PURE = /^(ip4_addr|pbuf_(copy_partial|get_at|try_get_at|clen|memcmp|memfind|get_contiguous|strstr)|netif_get_by_index)\b/;
/** Where the lock's recursive_mutex_t sits in the context, and its enter_count in it (pico/mutex.h). */
const LOCK_MUTEX = 48;
const ENTER_COUNT = 5;
const FLASH = 0x10000000;
const FLASH_SIZE = 0x200000;

function symbols(elf) {
  const map = new Map();
  for (const line of execFileSync('arm-none-eabi-nm', [elf], { encoding: 'utf8', maxBuffer: 64 << 20 }).split('\n')) {
    const [addr, type, name] = line.split(' ');
    if (name && /[TtBbDd]/.test(type)) map.set(name, parseInt(addr, 16));
  }
  return map;
}

/** Where the core calls what: the allocator's and lwIP's entry points, newlib's lock, lwIP's lock. */
function addresses(elf) {
  const syms = symbols(elf);
  const entries = new Map(); // address -> [kind, name]
  for (const name of ALLOCATOR) if (syms.has(name)) entries.set(syms.get(name) & ~1, ['alloc', name]);
  for (const [name, addr] of syms) {
    if (LWIP.test(name) && !LWIP_PURE.test(name) && addr >= 0x10000000 && addr < 0x20042000 && !entries.has(addr & ~1)) entries.set(addr & ~1, ['lwip', name]);
  }
  const context = syms.get('cyw43_async_context_threadsafe_background');
  const marked = new Uint8Array(FLASH_SIZE >>> 1);
  for (const addr of [...entries.keys(), syms.get('__malloc_lock') ?? 0, syms.get('__malloc_unlock') ?? 0]) {
    if (addr >= FLASH && addr < FLASH + FLASH_SIZE) marked[((addr & ~1) - FLASH) >>> 1] = 1;
  }
  return { entries, marked, lockAt: (syms.get('__malloc_lock') ?? 0) & ~1, unlockAt: (syms.get('__malloc_unlock') ?? 0) & ~1, mutex: context && context + LOCK_MUTEX };
}

/** newlib's heap work per context (IPSR): between __malloc_lock's return and the call of __malloc_unlock. */
function heapTracker(core, a) {
  const inHeap = new Map();
  const returns = []; // [context, address] of __malloc_lock calls not yet returned
  return {
    /** A __malloc_lock call has not returned yet: every instruction is looked at until it does. */
    get pending() { return returns.length > 0; },
    step(pc, ctx) {
      const last = returns[returns.length - 1];
      if (last && last[1] === pc && last[0] === ctx) {
        returns.pop();
        inHeap.set(ctx, (inHeap.get(ctx) ?? 0) + 1);
      }
      if (pc === a.lockAt) returns.push([ctx, core.LR & ~1]);
      else if (pc === a.unlockAt && inHeap.get(ctx)) inHeap.set(ctx, inHeap.get(ctx) - 1);
    },
    /** Another context inside the heap's work, or undefined. */
    other(ctx) {
      for (const [c, depth] of inHeap) if (depth > 0 && c !== ctx) return c;
      return undefined;
    },
  };
}

const where = (ctx) => (ctx ? `exception ${ctx}` : 'thread mode');

export function watchRaces(elf, stamp) {
  const a = addresses(elf);
  const lwipCount = [...a.entries.values()].filter(([k]) => k === 'lwip').length;
  console.log(`${stamp()} race-watch: ${lwipCount} lwIP functions, the allocator's ${a.entries.size - lwipCount}, ${a.mutex ? 'the lwIP lock' : 'no lwIP lock symbol'}`);
  // counts before the server serves (boot: lwIP's init, the Wi-Fi join) and from then on
  const count = { boot: { allocator: 0, lwip: 0 }, serving: { allocator: 0, lwip: 0 }, checked: 0, seen: new Set() };
  let phase = count.boot;
  const attach = (mcu) => {
    const core = mcu.core;
    const heap = heapTracker(core, a);
    const report = (what) => {
      const key = `${what} ${(core.LR >>> 0).toString(16)}`;
      if (count.seen.has(key)) return;
      count.seen.add(key);
      console.log(`${stamp()} race-watch: ${what}${phase === count.boot ? ' (before serving)' : ''}; backtrace:`);
      for (const l of backtrace(mcu, elf, 128)) console.log(l);
    };
    const lockHeld = () => {
      const spin = mcu.readUint32(a.mutex) >>> 0;
      if (spin < 0xd0000100 || spin > 0xd000017c) return null; // not initialised yet
      return mcu.readUint8(a.mutex + ENTER_COUNT) > 0;
    };
    const check = (pc, ctx, [kind, name]) => {
      if (kind === 'alloc') {
        const other = heap.other(ctx);
        if (other === undefined) return;
        phase.allocator++;
        report(`${name} entered in ${where(ctx)} while ${where(other)} is inside the heap (between __malloc_lock and __malloc_unlock)`);
      } else if (a.mutex) {
        const held = lockHeld();
        if (held !== null) count.checked++;
        if (held !== false) return;
        phase.lwip++;
        report(`${name} called outside the lwIP lock (${where(ctx)})`);
      }
    };
    const execute = core.executeInstruction.bind(core);
    core.executeInstruction = () => {
      const pc = core.PC;
      // one typed-array read for code in flash; the Map for the few entries elsewhere (RAM)
      const hit = pc >= FLASH && pc < FLASH + FLASH_SIZE ? a.marked[(pc - FLASH) >>> 1] : a.entries.has(pc);
      if (hit || heap.pending) {
        const ctx = core.IPSR;
        heap.step(pc, ctx);
        const entry = a.entries.get(pc);
        if (entry) check(pc, ctx, entry);
      }
      return execute();
    };
  };
  /** The server traced that it serves: what follows is counted apart. */
  const serving = () => { phase = count.serving; };
  const summary = () => `race-watch: ${count.serving.allocator} allocator entries inside the heap's work, ${count.serving.lwip} lwIP calls outside the lock (of ${count.checked} checked) while serving; before serving ${count.boot.allocator} and ${count.boot.lwip}`;
  return { attach, serving, summary };
}
