// A firmware update by UF2 on the emulated Pico W (tests/pico-emu-run.ts; skips with the reason when the
// board cannot run): another image is downloaded as the RP2040's boot ROM does it (run.mjs --uf2-at:
// written to flash, then a restart through the watchdog with no magic in scratch 4). The chip reports a
// watchdog reboot that the firmware did not enable, and the program in flash differs from the one of
// the last start: the module counts an update, and its saved settings stay. The other image is this
// one with one byte of a console message changed, so the console shows which image runs.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { clientResult, imagePath, missing, runBoard, runFigures } from './pico-emu-run';
import { NAME } from './pico-emu/update-client';

const REAL_SECONDS = 480;
const MESSAGE = 'SNTP: no answer';
const CHANGED = 'SNTP: No answer';

interface Seen {
  servedFirst: boolean; saved: boolean; restartsBefore: Record<string, number>; download?: string;
  restartLine?: string; servedAgain?: boolean; nameAfter?: unknown; restartsAfter?: Record<string, number>; sntpAfter?: string;
}

/** The image with its SNTP message changed in place (a UF2 block's payload; UF2 has no checksum). */
function otherImage(): string {
  const uf2 = fs.readFileSync(imagePath());
  const at = uf2.indexOf(MESSAGE);
  assert.ok(at > 0 && uf2.indexOf(MESSAGE, at + 1) < 0, `the image holds "${MESSAGE}" once`);
  assert.ok(at % 512 >= 32 && at % 512 + MESSAGE.length <= 32 + 256, 'the message lies inside one block\'s payload');
  uf2.write(CHANGED, at, 'latin1');
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pico-update-')), 'other.uf2');
  fs.writeFileSync(file, uf2);
  return file;
}

describe('Pico W image on an emulated board: an update by UF2', function () {
  const why = missing();
  before(function () {
    if (why) this.skip();
  });

  it(`counts an update and keeps the saved settings${why ? ` (skipped: ${why})` : ''}`, async function () {
    this.timeout((REAL_SECONDS + 90) * 1000);
    const other = otherImage();
    const out = await runBoard({ seconds: REAL_SECONDS, args: ['--uf2-at', `12:${other}`], client: 'update-client.js' });
    fs.rmSync(path.dirname(other), { recursive: true, force: true });
    const seen = clientResult<Seen>(out);
    assert.ok(seen?.servedFirst && seen.saved, out);
    assert.equal(seen.restartsBefore.update ?? 0, 0, out);
    assert.match(seen.restartLine ?? '', /REST API on port 80, serial 0xc1000001, started by update$/, out);
    assert.ok(seen.servedAgain, out);
    assert.equal(seen.nameAfter, NAME, 'the saved setting survives the update');
    assert.equal(seen.restartsAfter?.update, 1, out);
    assert.equal(seen.restartsAfter?.crash ?? 0, 0, out);
    assert.ok(seen.sntpAfter?.includes(CHANGED), `the other image runs (its console says "${CHANGED}")\n${out}`);
    console.log(`      ${runFigures(out)}; ${seen.restartLine}`);
  });
});
