// A hung loop on the emulated ESP32 (tests/esp32-emu-run.ts; tests/esp32-emu/watchdog-client.ts hangs the
// XS task's loop through QEMU's gdbstub): ESP-IDF's task watchdog, which the project's release sdkconfig
// turns on at 10 s with a panic, restarts the chip; the module serves again with its saved settings,
// says at boot that the watchdog started it, and counts the restart under cause="watchdog".
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { imagePath, missing, runBoard } from './esp32-emu-run';
import { clientResult } from './pico-emu-run';
import { symbolAddress } from '../tools/esp32-emu/gdb-remote';
import { NAME } from './esp32-emu/watchdog-client';

const REAL_SECONDS = 600;

interface Seen { servedFirst: boolean; saved: boolean; triggered?: string; secondsToWatchdog: number; started?: string; served: boolean; name: unknown; restarts: Record<string, number> }

describe('ESP32 wired image on an emulated ESP32: a hung loop and the task watchdog', function () {
  const why = missing();
  let out = '';
  let seen: Seen | undefined;
  before(async function () {
    if (why) this.skip();
    this.timeout((REAL_SECONDS + 90) * 1000);
    const elf = fs.readFileSync(path.join(path.dirname(imagePath()), 'xs_esp32.elf'));
    const at = symbolAddress(elf, 'modMessageService');
    assert.ok(at, 'modMessageService in the ELF');
    out = await runBoard({ seconds: REAL_SECONDS, client: 'esp32-emu/watchdog-client.js', env: { ESP32_HANG_AT: String(at) } });
    seen = clientResult<Seen>(out);
    for (const line of out.split('\n').filter((l) => l.startsWith('client: '))) console.log(`      ${line.slice(0, 300)}`);
    console.log(`      the watchdog restarted the chip ${seen?.secondsToWatchdog ?? '?'} s (real) after the loop hung`);
  });
  const skipped = why ? ` (skipped: ${why})` : '';

  it(`restarts the chip, serves again with its saved setting and counts the restart as the watchdog's${skipped}`, function () {
    assert.ok(seen?.servedFirst && seen.saved, out.slice(-20000));
    assert.match(seen.triggered ?? '', /Task watchdog got triggered/, out.slice(-20000));
    assert.match(seen.started ?? '', /boot: started by watchdog/, out.slice(-20000));
    assert.ok(seen.served, out.slice(-20000));
    assert.equal(seen.name, NAME);
    assert.equal(seen.restarts.watchdog, 1, JSON.stringify(seen.restarts));
  });
});
