// The Pico W's memcpy (native/mem-copy/mem-copy-pico.c), compiled on the host as pico_memcpy and held
// to a byte loop for every length to 300 and every alignment of either side (tests/native/mem-copy-check.c);
// and compiled for the Pico's core (Thumb-1, -Os as the image is built) when arm-none-eabi-gcc is there:
// no call of memcpy inside it, which would recurse.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { missingCompiler, projectFile, run } from './native-harness';

const SOURCE = projectFile('native/mem-copy/mem-copy-pico.c');

describe('Pico W: memcpy', function () {
  this.timeout(60000);
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'mem-copy-'));
  after(() => fs.rmSync(out, { recursive: true, force: true }));

  it(`copies every length and alignment as a byte loop does, and returns the destination${missingCompiler() ? ' (skipped: no C compiler)' : ''}`, function () {
    if (missingCompiler()) this.skip();
    const exe = path.join(out, 'mem-copy');
    for (const opt of ['-O0', '-O2', '-Os']) {
      const cc = spawnSync('cc', [opt, '-w', '-Dmemcpy=pico_memcpy', '-DMEM_COPY_SECTION=', '-o', exe, SOURCE, projectFile('tests/native/mem-copy-check.c')], { encoding: 'utf8' });
      assert.equal(cc.status, 0, cc.stderr);
      const r = run(exe);
      assert.deepEqual(r.counts, { cases: 8 * 8 * 301, wrong: 0 }, `${opt}: ${r.output}`);
    }
  });

  const arm = spawnSync('sh', ['-c', 'command -v arm-none-eabi-gcc']).status === 0;
  it(`built for the Pico's core, it calls no memcpy of its own and lies in RAM${arm ? '' : ' (skipped: no arm-none-eabi-gcc)'}`, function () {
    if (!arm) this.skip();
    const obj = path.join(out, 'mem-copy.o');
    const cc = spawnSync('arm-none-eabi-gcc', ['-c', '-mcpu=cortex-m0plus', '-mthumb', '-Os', '-ffunction-sections', '-o', obj, SOURCE], { encoding: 'utf8' });
    assert.equal(cc.status, 0, cc.stderr);
    const dump = spawnSync('arm-none-eabi-objdump', ['-dr', obj], { encoding: 'utf8' }).stdout;
    assert.match(dump, /section \.time_critical\.memcpy/);
    assert.match(dump, /<memcpy>:/);
    assert.doesNotMatch(dump, /R_ARM_THM_CALL\s+memcpy/);
  });
});
