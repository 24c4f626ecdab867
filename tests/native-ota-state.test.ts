// The ESP32's rollback version (esp32/ota-state.c) compiled on the host against a fake of ESP-IDF's
// app_update (tests/native/ota-include): the version GET …/firmware reports as `rollback` is one a
// rollback would boot. After a download cut mid-body the other slot keeps a VALID otadata entry and a
// readable header, but ESP-IDF's esp_ota_check_rollback_is_possible() refuses it (its image does not
// validate): no version then.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { missingCompiler } from './native-harness';

const ROOT = path.resolve(__dirname, '../..');

describe('ESP32 rollback version (esp32/ota-state.c on the host)', () => {
  const why = missingCompiler();
  it(`names the other slot's version only when a rollback would boot it${why ? ` (skipped: ${why})` : ''}`, function () {
    if (why) this.skip();
    const exe = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ota-state-')), 'ota');
    const cc = spawnSync('cc', ['-Wall', '-Werror', '-I', 'tests/native/ota-include', '-I', 'tests/native/include', '-o', exe,
      'tests/native/ota-state-scenarios.c'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(cc.status, 0, cc.stderr);
    const r = spawnSync(exe, { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const seen = Object.fromEntries(r.stdout.trim().split('\n').map((l) => l.split(' ')));
    assert.deepEqual(seen, { 'previous-image': '2.11.0', 'download-cut-mid-body': '-', 'rolled-back-from': '-', aborted: '-', 'never-written': '-' });
  });
});
