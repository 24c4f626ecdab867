// Firmware updates over HTTP on the emulated ESP32 (tests/esp32-emu-run.ts; tests/esp32-emu/update-client.ts
// drives them): the running image is A (ota_0); B is the same app with another version in its
// descriptor (tests/esp32-emu/app-image.ts). B goes into ota_1 and serves, confirmed; A goes back into
// ota_0; then B once more on a board whose link is pulled before B answers anything: B never confirms,
// and the restart that follows boots A again. The flash, and the saved setting, outlive every restart.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { boardTrouble, imagePath, missing, runBoard } from './esp32-emu-run';
import { clientResult } from './pico-emu-run';
import { withVersion, versionOf } from './esp32-emu/app-image';
import { NAME } from './esp32-emu/update-client';

const REAL_SECONDS = 1500;

interface Firmware { version?: string; slot?: string; confirmed?: boolean; rollback?: string | null }
interface Update { put: number; answer: string; appVersion?: string; restLine?: string; served: boolean; firmware: Firmware }
interface Seen {
  servedFirst: boolean; firmwareFirst: Firmware; saved: boolean; toB: Update; nameAfterB: unknown; backToA: Update;
  neverServed: { put: number; answer: string; appVersion?: string; afterReset?: string; bootloader?: string; served: boolean; firmware: Firmware };
  restarts: Record<string, number>;
}

describe('ESP32 wired image on an emulated ESP32: firmware updates over HTTP, and the rollback of one that never serves', function () {
  const why = missing();
  let out = '';
  let seen: Seen | undefined;
  let a = '';
  before(async function () {
    if (why) this.skip();
    this.timeout((REAL_SECONDS + 90) * 1000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'esp32-update-'));
    const app = fs.readFileSync(path.join(path.dirname(imagePath()), 'xs_esp32.bin'));
    a = versionOf(app);
    fs.writeFileSync(path.join(dir, 'a.bin'), app);
    fs.writeFileSync(path.join(dir, 'b.bin'), withVersion(app, '9.8.7'));
    out = await runBoard({ seconds: REAL_SECONDS, client: 'esp32-emu/update-client.js',
      env: { ESP32_UPDATE_A: path.join(dir, 'a.bin'), ESP32_UPDATE_B: path.join(dir, 'b.bin') } });
    fs.rmSync(dir, { recursive: true, force: true });
    seen = clientResult<Seen>(out);
    for (const line of out.split('\n').filter((l) => l.startsWith('client: '))) console.log(`      ${line.slice(0, 300)}`);
  });
  const skipped = why ? ` (skipped: ${why})` : '';

  it(`takes image B into ota_1 (202 with its version), restarts into it, serves and confirms it; the saved setting stays${skipped}`, function () {
    assert.ok(seen?.servedFirst && seen.saved, out.slice(-20000));
    assert.equal(seen.firmwareFirst.slot, 'ota_0');
    assert.equal(seen.toB.put, 202, seen.toB.answer);
    assert.match(seen.toB.answer, /9\.8\.7/);
    assert.match(seen.toB.appVersion ?? '', /App version: +9\.8\.7/);
    assert.match(seen.toB.restLine ?? '', /started by update/);
    assert.equal(seen.toB.firmware.slot, 'ota_1');
    assert.equal(seen.toB.firmware.confirmed, true);
    assert.equal(seen.nameAfterB, NAME);
  });

  it(`takes image A back into ota_0${skipped}`, function () {
    assert.ok(seen, out.slice(-20000));
    assert.equal(seen.backToA.put, 202, seen.backToA.answer);
    assert.match(seen.backToA.appVersion ?? '', new RegExp(`App version: +${a.replace(/\./g, '\\.')}`));
    assert.equal(seen.backToA.firmware.slot, 'ota_0');
    assert.equal(seen.backToA.firmware.confirmed, true);
  });

  it(`rolls back an image that never served at the next restart, and counts each update${skipped}`, function () {
    assert.ok(seen, out.slice(-20000));
    assert.equal(seen.neverServed.put, 202, seen.neverServed.answer);
    assert.match(seen.neverServed.appVersion ?? '', /App version: +9\.8\.7/, out.slice(-20000));
    assert.match(seen.neverServed.afterReset ?? '', new RegExp(`App version: +${a.replace(/\./g, '\\.')}`), out.slice(-20000));
    assert.ok(seen.neverServed.served, out.slice(-20000));
    assert.equal(seen.neverServed.firmware.slot, 'ota_0');
    assert.equal(seen.neverServed.firmware.confirmed, true);
    assert.ok((seen.restarts.update ?? 0) >= 2, JSON.stringify(seen.restarts));
    assert.equal(boardTrouble(out), undefined, out.slice(-20000));
  });
});
