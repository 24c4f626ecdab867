// The wired ESP32 subplatforms (esp32/wired for WT32-ETH01 and Olimex ESP32-POE boards, esp32/qemu for
// the emulated ESP32): their board profiles leave the Ethernet's pins alone, and the emulated board's
// ESP-IDF options are the module's own with the emulator's lines after them (mcconfig merges one folder's sdkconfig files: docs/esp32.md).
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const read = (p: string): string => fs.readFileSync(path.join(ROOT, p), 'utf8');
const manifest = (p: string): { config: { ethernet: string; board: Record<string, unknown> } } => JSON.parse(read(p));

/** GPIOs the RMII and SMI use on both boards, the clock and PHY power pins of each, the flash, and the console. */
const ETHERNET = [18, 19, 21, 22, 23, 25, 26, 27];
const CLOCK_AND_POWER = [0, 16, 12, 17];
const FLASH = [6, 7, 8, 9, 10, 11];
const CONSOLE = [1, 3];

function pinsOf(board: Record<string, unknown>): number[] {
  const uart = (board.uart as { transmit: number; receive: number }[]).flatMap((u) => [u.transmit, u.receive]);
  return [...(board.digital as number[]), ...(board.analog as number[]), ...(board.servo as number[]), ...(board.signal as number[]), ...uart];
}

describe('ESP32 with Ethernet: the wired subplatforms', () => {
  for (const sub of ['wired', 'qemu']) {
    it(`esp32/${sub}: the board profile uses no Ethernet, clock, PHY power, flash or console pin, and no pin twice`, () => {
      const board = manifest(`esp32/${sub}/manifest.json`).config.board;
      const pins = pinsOf(board);
      for (const p of pins) assert.ok(![...ETHERNET, ...CLOCK_AND_POWER, ...FLASH, ...CONSOLE].includes(p), `GPIO ${p}`);
      assert.equal(new Set(pins).size, pins.length);
      for (const p of (board.analog as number[])) assert.ok([32, 33, 34, 35, 36, 37, 38, 39].includes(p), `GPIO ${p} is no ADC1 pin`);
      assert.ok(Buffer.byteLength(String(board.name)) <= 32, 'system/0/name takes at most 32 bytes');
    });
  }

  it('the emulated board has no analog inputs (QEMU\'s esp32 machine has no SAR ADC: a read never completes)', () => {
    assert.deepEqual(manifest('esp32/qemu/manifest.json').config.board.analog, []);
    assert.equal(manifest('esp32/qemu/manifest.json').config.ethernet, 'openeth');
    assert.equal(manifest('esp32/wired/manifest.json').config.ethernet, 'wt32-eth01');
  });

  it('the emulated board\'s ESP-IDF options are esp32/\'s own, then the emulator\'s', () => {
    assert.ok(read('esp32/qemu/sdkconfig.defaults').startsWith(read('esp32/sdkconfig.defaults')));
    assert.equal(read('esp32/qemu/sdkconfig.defaults.release'), read('esp32/sdkconfig.defaults.release'));
    assert.match(read('esp32/qemu/sdkconfig.defaults'), /^CONFIG_ESPTOOLPY_FLASHMODE_DIO=y$/m);
  });

});
