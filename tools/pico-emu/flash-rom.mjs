// Flash writes on the emulated board. rp2040js reads the image from its flash array but does not
// model the flash chip's commands behind the SSI, so an erase or a program through the boot ROM
// (what pico-sdk's flash_range_erase and flash_range_program call: the Preferences of Moddable's
// pico port live in flash) would change nothing. The boot ROM's own 'RE' (flash_range_erase) and 'RP'
// (flash_range_program) functions are replaced by a BKPT each, which the runner carries out on the
// flash array: erase sets bytes to 0xFF, program clears bits as NOR flash does, then returns to LR.
const ERASE = 0xe0, PROGRAM = 0xe1; // BKPT numbers (the SDK's panic ends in BKPT 0)
const FLASH_BASE = 0x10000000;

const code = (a, b) => a.charCodeAt(0) | (b.charCodeAt(0) << 8);
const half = (rom, o) => (rom[o >> 2] >>> ((o & 2) * 8)) & 0xffff;
function setHalf(rom, o, v) {
  const shift = (o & 2) * 8;
  rom[o >> 2] = ((rom[o >> 2] & ~(0xffff << shift)) | (v << shift)) >>> 0;
}

/** The boot ROM with its flash erase and program functions trapped (RP2040 datasheet 2.8.3: the
 * function table's address is the half-word at 0x14; entries are (code, address), ending in 0). */
export function trapFlashWrites(bootrom) {
  const rom = Uint32Array.from(bootrom);
  const traps = new Map([[code('R', 'E'), ERASE], [code('R', 'P'), PROGRAM]]);
  let found = 0;
  for (let t = half(rom, 0x14); half(rom, t) !== 0; t += 4) {
    const bkpt = traps.get(half(rom, t));
    if (bkpt === undefined) continue;
    setHalf(rom, half(rom, t + 2) & ~1, 0xbe00 | bkpt);
    found++;
  }
  if (found !== traps.size) throw new Error('boot ROM: no flash_range_erase/flash_range_program in its function table');
  return rom;
}

/** Erases as they happen: onErase(offset, bytes), when set (soak.mjs counts the sectors). */
export const flashLog = { onErase: null };

/** Carries out a trapped call; false for any other BKPT. */
export function handleFlashTrap(mcu, bkpt) {
  if (bkpt !== ERASE && bkpt !== PROGRAM) return false;
  const { core, flash } = mcu;
  const [addr, arg1, arg2] = [core.registers[0], core.registers[1], core.registers[2]];
  const offset = addr >= FLASH_BASE ? addr - FLASH_BASE : addr;
  if (bkpt === ERASE) {
    flash.fill(0xff, offset, Math.min(flash.length, offset + arg1));
    flashLog.onErase?.(offset, arg1);
  }
  else for (let i = 0; i < arg2 && offset + i < flash.length; i++) flash[offset + i] &= mcu.readUint8(arg1 + i);
  core.PC = core.LR & ~1;
  return true;
}
