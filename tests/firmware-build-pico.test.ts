// The Pico W image as a new user builds it: `make device PLATFORM=pico/pico_w` in an empty build folder,
// where nothing is left from an earlier build. Needs the Moddable SDK (MODDABLE, its tools on PATH) and
// the Pico tools of docs/pico.md (`make pico-tools` says which is missing); skips with that one line
// otherwise. Also checks, with the SDK alone, that every SDK C file a project native file includes has
// its `xsID_` keys named in the project file: Moddable's xsid reads only the text of the file it is
// given, so a key that only the included file names exists in a reused build folder (its mc.xsi keeps
// every key seen before) and is undeclared in an empty one.

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const MODDABLE = process.env.MODDABLE ?? '';

/** The project's C files (native/, esp32/). */
function projectCFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.c')) out.push(p);
    }
  };
  for (const d of ['native', 'esp32']) walk(path.join(ROOT, d));
  return out;
}

/** The SDK file a relative `#include "../x/y.c"` names: its path below $MODDABLE/modules. */
function sdkFile(include: string): string | undefined {
  const tail = include.split('/').filter((s) => s !== '..' && s !== '.').join('/');
  const found = spawnSync('find', [path.join(MODDABLE, 'modules'), '-path', `*/${tail}`], { encoding: 'utf8' });
  return found.stdout.split('\n').find(Boolean);
}

const keys = (text: string): Set<string> => new Set(text.match(/xsID_[0-9A-Za-z_]+/g) ?? []);

describe('firmware build: xsID keys of included SDK C files', function () {
  before(function () {
    if (!MODDABLE || !fs.existsSync(path.join(MODDABLE, 'modules'))) {
      console.log('      skipped: MODDABLE is not set to a Moddable SDK checkout');
      this.skip();
    }
  });

  it('every key an included SDK C file uses is named in the project file that includes it', () => {
    let included = 0;
    for (const file of projectCFiles()) {
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(/^#include "([^"]+\.c)"/gm)) {
        const sdk = sdkFile(m[1]);
        assert.ok(sdk, `${path.relative(ROOT, file)}: ${m[1]} is not in the SDK`);
        included++;
        const own = keys(text);
        const lacking = [...keys(fs.readFileSync(sdk, 'utf8'))].filter((k) => !own.has(k));
        assert.deepEqual(lacking, [], `${path.relative(ROOT, file)} includes ${path.relative(MODDABLE, sdk)} but does not name ${lacking.join(' ')}`);
      }
    }
    assert.ok(included > 0, 'no project C file includes an SDK C file (the Pico W socket does)');
  });
});

describe('firmware build: the Pico W image from an empty build folder', function () {
  this.timeout(30 * 60 * 1000);
  let out = '';

  before(function () {
    const tools = spawnSync('make', ['-s', '-o', 'node_modules/.installed', 'moddable-tools', 'pico-tools', 'PLATFORM=pico/pico_w'], { cwd: ROOT, encoding: 'utf8' });
    if (tools.status !== 0) {
      console.log(`      skipped: ${(tools.stderr.trim().split('\n')[0] || 'the Pico tools are missing')}`);
      this.skip();
    }
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'pico-clean-'));
  });
  after(() => {
    if (out) fs.rmSync(out, { recursive: true, force: true });
  });

  it('links xs_pico.uf2 with nothing left from an earlier build', () => {
    const r = spawnSync('make', ['-s', 'device', 'PLATFORM=pico/pico_w', `DEVICE_BUILD_DIR=${out}`, 'MCCONFIG_ARGS=ssid=lab password=secret'], {
      cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024,
    });
    const errors = `${r.stdout}\n${r.stderr}`.split('\n').filter((l) => /\berror\b/.test(l) && !l.startsWith('#'));
    assert.equal(r.status, 0, errors.slice(0, 5).join('\n') || r.stderr.slice(-2000));
    const image = path.join(out, 'bin/pico/pico_w/release/brainstem-rest/xs_pico.uf2');
    assert.ok(fs.statSync(image).size > 1024 * 1024, `${image} is not a whole image`);
  });

  it('answers a failed malloc with NULL, not pico-sdk\'s panic (native/pico-options/pico-options.h)', () => {
    const elf = path.join(out, 'bin/pico/pico_w/release/brainstem-rest/xs_pico.elf');
    for (const fn of ['__wrap_malloc', '__wrap_calloc', '__wrap_realloc']) {
      const d = spawnSync('arm-none-eabi-objdump', ['-d', `--disassemble=${fn}`, elf], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      assert.match(d.stdout, new RegExp(`<${fn}>:`), `${fn} is in the image`);
      assert.doesNotMatch(d.stdout, /<panic>/, `${fn} calls panic`);
    }
  });

  it('runs a fault\'s restart from RAM: a fault while XIP is off (a flash write under way) still restarts as a crash (native/watchdog/pico/wdt-pico.c)', () => {
    const elf = path.join(out, 'bin/pico/pico_w/release/brainstem-rest/xs_pico.elf');
    for (const fn of ['isr_hardfault', '_exit']) {
      const d = spawnSync('arm-none-eabi-objdump', ['-d', `--disassemble=${fn}`, elf], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      const start = /^([0-9a-f]{8}) <(\w+)>:$/m.exec(d.stdout);
      assert.ok(start && start[2] === fn, `${fn} is in the image`);
      assert.ok(parseInt(start![1], 16) >= 0x20000000, `${fn} at 0x${start![1]}: in flash, not in SRAM`);
      const calls = d.stdout.split('\n').filter((l) => /\sb(l|lx|x)?(\.\w)?\s+[0-9a-f]+ </.test(l) && / 10[0-9a-f]{6} </.test(l));
      assert.deepEqual(calls, [], `${fn} branches into flash`);
    }
  });
});
