// `make pico-size` reads the sizes from the build itself. Without a build it says so in one line; with
// a build of the JavaScript half (what mcconfig and xsl write, no Pico toolchain) it prints the XS rows.
// The files below keep the shape of what Moddable SDK 8.2.3 writes: mc.xs.c's `#define mxHeapCount`
// (xs/tools/xsl.c:600), its gxHeap slots (xs/tools/xslSlot.c:1095, one a line, which is how xsl counts
// its "instances": xs/tools/xslOpt.c:294) and gxPreparation's creation record (xs/tools/xsl.c:724), and
// the makefile's MAIN_DIR (tools/mcmanifest.js:596), PRELOADS (tools/mcconfig.js:120) and module rules.

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const TMP = 'tmp/pico/pico_w/release/brainstem-rest';

function makeSize(buildDir: string) {
  const env = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: os.tmpdir() };
  return spawnSync('make', ['-s', 'pico-size', `DEVICE_BUILD_DIR=${buildDir}`], { cwd: ROOT, env, encoding: 'utf8' });
}

const slot = (i: number, kind: string) =>
  `/* ${String(i).padStart(4, '0')} */\t{ NULL, {.ID = XS_NO_ID, .flag = 0x90, .kind = ${kind}}, .value = { .instance = { NULL, NULL } } },`;

/** mc.xs.c as xsl writes it: 6 slots, 2 of them instances; 4,096 B of chunks and 256 slots, fixed. */
const MC_XS_C = [
  '/* XS GENERATED FILE; DO NOT EDIT! 105 */',
  '#define mxAliasCount 3',
  '#define mxHeapCount 6',
  '#define mxKeysCount 41',
  'static const txSlot gxHeap[mxHeapCount] = {',
  slot(0, 'XS_REFERENCE_KIND'), slot(1, 'XS_INSTANCE_KIND'), slot(2, 'XS_STRING_X_KIND'),
  slot(3, 'XS_INSTANCE_KIND'), slot(4, 'XS_REFERENCE_KIND'), slot(5, 'XS_NUMBER_KIND'),
  '};',
  'static const txPreparation gxPreparation = {',
  '\tmxScriptsCount,',
  '\t(txScript*)gxScripts,',
  '\t833,',
  '\t{ 4096, 0, 256, 0, 512, 32, 32, 53, 3, 1024, 17, 0, 0},',
  '\t"src/device/main",',
  '};',
  '',
].join('\n');

/** The makefile's project dir, preloads and module rules: two project modules (one preloaded) and one of the SDK's. */
const MAKEFILE = (main: string) => [
  'NAME = brainstem-rest',
  `MAIN_DIR = ${main}`,
  'PRELOADS =\\',
  '\t-p timer.xsb\\',
  '\t-p src/http/request.xsb\\',
  '',
  '$(MODULES_DIR)/timer.xsb: /sdk/modules/base/timer/timer.js',
  "\t@echo '# xsc timer.xsb'",
  `$(MODULES_DIR)/src/http/request.xsb: $(TMP_DIR)/tsc/src/http/request${main}/src/http/request.js`,
  "\t@echo '# xsc src/http/request.xsb'",
  `$(MODULES_DIR)/src/device/main.xsb: $(TMP_DIR)/tsc/src/device/main${main}/src/device/main.js`,
  "\t@echo '# xsc src/device/main.xsb'",
  '',
].join('\n');

describe('make pico-size', function () {
  this.timeout(20000);
  let tmp = '';
  beforeEach(() => { tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pico-size-')); });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('says in one line that there is no Pico W build, and which command makes one', () => {
    const r = makeSize(tmp);
    assert.notEqual(r.status, 0);
    const ours = r.stderr.split('\n').filter((l) => l.startsWith('make pico-size:'));
    assert.deepEqual(ours, [`make pico-size: no Pico W build in ${tmp} (no ${TMP}/mc.xs.c): run make device PLATFORM=pico/pico_w first`]);
    assert.equal(r.stdout, '');
  });

  it('prints the XS image of a JavaScript-half build (no xs_pico.elf, no Pico toolchain)', () => {
    fs.mkdirSync(path.join(tmp, TMP), { recursive: true });
    fs.writeFileSync(path.join(tmp, TMP, 'mc.xs.c'), MC_XS_C);
    fs.writeFileSync(path.join(tmp, TMP, 'makefile'), MAKEFILE('/home/me/brainstem'));
    const r = makeSize(tmp);
    assert.equal(r.status, 0, r.stderr);
    const rows = Object.fromEntries(r.stdout.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| |'))
      .map((l) => l.slice(2, -2).split(' | ')));
    assert.match(r.stdout, /^brainstem-rest, pico\/pico_w\/release: the JavaScript half only \(no xs_pico\.elf\)$/m);
    assert.deepEqual(rows, {
      'the preloaded heap (`gxHeap`)': '6 slots (96 B)',
      '`mc.xs.c` (C source)': `${Buffer.byteLength(MC_XS_C).toLocaleString('en-US')} B`,
      'xsl: instances, keys': '2, 41',
      'project modules preloaded': '1 of 2 (not `src/device/main`)',
      'XS heaps at boot (`creation`)': '4,096 B chunks + 256 slots (4,096 B), no growth',
    });
  });
});
