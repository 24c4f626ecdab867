// Where the core stopped, in the image's own names: the PC, the LR, and the words on the stack that
// look like return addresses into flash (odd: Thumb), resolved with arm-none-eabi-addr2line against
// the image's .elf when both are there. A heuristic backtrace (no unwinding): stale words appear too.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const FLASH = 0x10000000, FLASH_END = 0x10200000;

export function backtrace(mcu, elf, words = 256) {
  const { core } = mcu;
  const addrs = [core.PC, core.LR & ~1];
  for (let i = 0; i < words; i++) {
    const w = mcu.readUint32(core.SP + i * 4) >>> 0;
    if (w & 1 && w >= FLASH && w < FLASH_END) addrs.push((w & ~1) - 2);
  }
  const hex = addrs.map((a) => `0x${(a >>> 0).toString(16)}`);
  if (!elf || !fs.existsSync(elf)) return hex.map((h) => `  ${h}`);
  const r = spawnSync('arm-none-eabi-addr2line', ['-f', '-s', '-e', elf, ...hex], { encoding: 'utf8' });
  if (r.status !== 0) return hex.map((h) => `  ${h}`);
  const lines = r.stdout.trim().split('\n');
  return hex.map((h, i) => `  ${h} ${lines[2 * i]} (${lines[2 * i + 1]})`);
}
