// Where the core stopped, in the image's own names: the PC, the LR, and the words on the stack that
// look like return addresses into flash (odd: Thumb), resolved with arm-none-eabi-addr2line against
// the image's .elf when both are there. A heuristic backtrace (no unwinding): stale words appear too.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const FLASH = 0x10000000, FLASH_END = 0x10200000;

export function backtrace(mcu, elf, words = 256) {
  const { core } = mcu;
  const addrs = [core.PC, core.LR & ~1];
  const interrupted = new Set();
  const stack = Array.from({ length: words }, (_, i) => mcu.readUint32(core.SP + i * 4) >>> 0);
  stack.forEach((w, i) => {
    if (w & 1 && w >= FLASH && w < FLASH_END) addrs.push((w & ~1) - 2);
    // an exception frame (R0-R3, R12, LR, PC, xPSR; ARMv6-M B1.5.6) of an interrupted thread: xPSR with
    // the Thumb bit and no exception number; its PC (even) is where the interrupt came in
    const pc = stack[i - 1];
    if (i >= 7 && (w & 0xff0001ff) === 0x01000000 && !(pc & 1) && pc >= FLASH && pc < FLASH_END) {
      interrupted.add(addrs.length);
      addrs.push(pc);
    }
  });
  const mark = (i) => (interrupted.has(i) ? ' <- an interrupt came in here' : '');
  const hex = addrs.map((a) => `0x${(a >>> 0).toString(16)}`);
  if (!elf || !fs.existsSync(elf)) return hex.map((h, i) => `  ${h}${mark(i)}`);
  const r = spawnSync('arm-none-eabi-addr2line', ['-f', '-s', '-e', elf, ...hex], { encoding: 'utf8' });
  if (r.status !== 0) return hex.map((h, i) => `  ${h}${mark(i)}`);
  const lines = r.stdout.trim().split('\n');
  return hex.map((h, i) => `  ${h} ${lines[2 * i]} (${lines[2 * i + 1]})${mark(i)}`);
}
