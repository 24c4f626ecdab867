// The ESP32's restart cause (native/watchdog/esp32/wdt-esp32.c) compiled on the host with the host's C
// compiler against ESP-IDF v6.0's list of reset reasons (tests/native/wdt-include/esp_system.h) and the
// fake XS: every reason the chip can report gives the cause a user would name. A reset a host asked for
// over USB, JTAG or SDIO (esptool, a debugger) is the reset pin's `pin` (counted as `reset`); a power
// glitch is `power`; only a panic, a lock-up, an eFuse error or an unknown reason is a `crash`.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { missingCompiler } from './native-harness';

const ROOT = path.resolve(__dirname, '../..');

const EXPECTED: Record<string, string> = {
  UNKNOWN: 'crash', POWERON: 'power', EXT: 'pin', SW: 'software', PANIC: 'crash', INT_WDT: 'watchdog', TASK_WDT: 'watchdog',
  WDT: 'watchdog', DEEPSLEEP: 'power', BROWNOUT: 'power', SDIO: 'pin', USB: 'pin', JTAG: 'pin', EFUSE: 'crash',
  PWR_GLITCH: 'power', CPU_LOCKUP: 'crash',
};

describe('ESP32 restart causes (native/watchdog/esp32/wdt-esp32.c on the host)', () => {
  const why = missingCompiler();
  it(`names every reset reason of ESP-IDF v6.0 as a user would${why ? ` (skipped: ${why})` : ''}`, function () {
    if (why) this.skip();
    const exe = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wdt-esp32-')), 'wdt');
    const cc = spawnSync('cc', ['-Wall', '-Werror', '-I', 'tests/native/wdt-include', '-I', 'tests/native/include', '-o', exe,
      'tests/native/wdt-esp32-scenarios.c'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(cc.status, 0, cc.stderr);
    const out = spawnSync(exe, { encoding: 'utf8' }).stdout.trim().split('\n');
    const seen: Record<string, string> = {};
    for (const line of out) {
      const [, name, cause] = line.split(' ');
      seen[name] = cause;
    }
    assert.deepEqual(seen, EXPECTED);
  });
});
