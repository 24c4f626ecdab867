// The chips' entropy (native/entropy/entropy-*.c) compiled on the host with the host's C compiler,
// the chip's calls faked where they are the chip's (tests/native/entropy-include): every byte of the
// buffer is written and none after it, from pico-sdk's get_rand_64 eight bytes at a time on the Pico W;
// on the ESP32 with the SAR ADC noise source on while the bytes are read and off once they are; from
// the kernel on the desktop host, different each time.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { missingCompiler } from './native-harness';

const ROOT = path.resolve(__dirname, '../..');

function run(platform: 'PICO' | 'ESP32' | 'LIN'): string[] {
  const exe = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'entropy-')), 'entropy');
  const cc = spawnSync('cc', ['-Wall', '-Werror', '-I', 'tests/native/entropy-include', '-I', 'tests/native/include',
    `-DENTROPY_${platform}`, '-o', exe, 'tests/native/entropy-scenarios.c', 'tests/native/fake-xs.c'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(cc.status, 0, cc.stderr);
  const out = spawnSync(exe, { encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
  return out.stdout.trim().split('\n');
}

describe('entropy of each chip (native/entropy on the host)', () => {
  const why = missingCompiler();
  const skip = why ? ` (skipped: ${why})` : '';

  it(`Pico W: get_rand_64's bytes fill the buffer, low byte first, and nothing after it${skip}`, function () {
    if (why) this.skip();
    assert.deepEqual(run('PICO'), [
      'fill 16 0102030405060708090a0b0c0d0e0f10ee',
      'fill 13 1112131415161718191a1b1c1dee', // two draws, the second cut at the end
      'fill 1 21ee',
    ]);
  });

  it(`ESP32: the SAR ADC noise source is on while the bytes are read, and off after${skip}`, function () {
    if (why) this.skip();
    assert.deepEqual(run('ESP32'), [
      'noise on', 'fill 16 a0a1a2a3a4a5a6a7a8a9aaabacadaeafee', 'noise off',
      'noise on', 'fill 13 a0a1a2a3a4a5a6a7a8a9aaabacee', 'noise off',
      'noise on', 'fill 1 a0ee', 'noise off',
    ]);
  });

  it(`desktop host: the kernel's random bytes, different at each fill${skip}`, function () {
    if (why) this.skip();
    const lines = run('LIN');
    assert.equal(lines.length, 3);
    const sixteen = lines[0].split(' ')[2];
    assert.match(sixteen, /^[0-9a-f]{32}ee$/);
    assert.match(lines[1], /^fill 13 [0-9a-f]{26}ee$/);
    assert.notEqual(run('LIN')[0], lines[0]);
  });
});
