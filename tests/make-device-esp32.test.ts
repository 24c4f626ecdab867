// `make device PLATFORM=esp32` without one of the ESP32 tools: one line says which is missing and
// mcconfig never runs; with every tool and all that ESP-IDF's link needs (here a fake tree of the same
// shape, and a fake mcconfig that records how it was called) it is mcconfig -m, which builds and flashes.
// What the build does where ESP-IDF cannot link: tests/esp32-build.test.ts, with the real tools.

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

interface Run { status: number | null; stderr: string; mcconfig: string | null }

describe('make device PLATFORM=esp32', function () {
  this.timeout(20000);
  let tmp = '';
  const at = (...p: string[]) => path.join(tmp, ...p);
  const tool = (file: string, body = 'exit 0') => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  };

  /** An ESP-IDF checkout at tag `tag` with the shape make device looks at. */
  function idfTree(tag = 'v6.0'): void {
    fs.mkdirSync(at('esp-idf/components/esp_system'), { recursive: true });
    const git = (...args: string[]) => {
      const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: at('esp-idf'), encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
    };
    git('init', '-q');
    git('commit', '-q', '--allow-empty', '-m', 'release');
    git('tag', '-a', tag, '-m', tag); // annotated, as ESP-IDF's release tags are (git describe reads no other)
  }

  /** Every tool esp32-tools checks, and what ESP-IDF's link needs. */
  function allTools(): void {
    idfTree();
    tool(at('bin/xtensa-esp32-elf-gcc'));
    tool(at('bin/xtensa-esp32-elf-g++'));
    tool(at('bin/python'));
    tool(at('bin/idf.py'));
    tool(at('kconfig-python'), '[ "$2" = "import kconfgen" ]');
    tool(at('esp-idf/components/esp_wifi/lib/esp32/libnet80211.a'));
  }

  function make(env: Record<string, string> = {}): Run {
    const log = at('mcconfig.log');
    fs.rmSync(log, { force: true });
    const r = spawnSync('make', ['-s', '-o', 'node_modules/.installed', 'device', 'PLATFORM=esp32', `DEVICE_BUILD_DIR=${at('out')}`], {
      cwd: ROOT,
      encoding: 'utf8',
      env: {
        PATH: `${at('bin')}:/usr/bin:/bin`, // not /usr/local/bin: the machine's own tools stay out of the test
        HOME: at('home'),
        MODDABLE: at('moddable'),
        IDF_PATH: at('esp-idf'),
        IDF_PYTHON: at('kconfig-python'),
        FAKE_LOG: log,
        ...env,
      },
    });
    return { status: r.status, stderr: r.stderr, mcconfig: fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : null };
  }

  /** The lines of our own check (make adds its "***" line after them). */
  const said = (r: Run) => r.stderr.split('\n').filter((l) => l.startsWith('make device PLATFORM='));

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'make-device-esp32-'));
    fs.mkdirSync(at('moddable/build'), { recursive: true });
    tool(at('bin/mcconfig'), 'echo "ARGS $*" > "$FAKE_LOG"');
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('says in one line that IDF_PATH is not set, and runs no mcconfig', () => {
    const r = make({ IDF_PATH: '' });
    assert.notEqual(r.status, 0);
    assert.deepEqual(said(r), ['make device PLATFORM=esp32: IDF_PATH is not set (an ESP-IDF v6.0 checkout) (docs/esp32.md)']);
    assert.equal(r.mcconfig, null);
  });

  it('names the tag it found when ESP-IDF is at another version', () => {
    allTools();
    fs.rmSync(at('esp-idf/.git'), { recursive: true });
    idfTree('v5.5');
    const r = make();
    assert.notEqual(r.status, 0);
    assert.deepEqual(said(r), [`make device PLATFORM=esp32: ESP-IDF at IDF_PATH=${at('esp-idf')} is not a git checkout at v6.0 (v5.5); Moddable's make.esp32.mk reads the version with git describe (docs/esp32.md)`]);
    assert.equal(r.mcconfig, null);
  });

  const PIECES: [string, string, RegExp][] = [
    ['ESP-IDF', 'esp-idf/components', /no ESP-IDF at IDF_PATH=/],
    ['the C compiler', 'bin/xtensa-esp32-elf-gcc', /no xtensa-esp32-elf-gcc on PATH/],
    ['python', 'bin/python', /no python on PATH \(Moddable's make\.esp32\.mk runs python/],
    ["ESP-IDF's kconfgen", 'kconfig-python', /IDF_PYTHON=.* has no esp-idf-kconfig/],
  ];
  for (const [what, remove, message] of PIECES) {
    it(`names ${what} when only it is missing`, function () {
      // A python of the system's own (Debian's python-is-python3) cannot be taken away here.
      if (remove === 'bin/python' && ['/usr/bin/python', '/bin/python'].some((p) => fs.existsSync(p))) this.skip();
      allTools();
      fs.rmSync(at(remove), { recursive: true });
      const r = make();
      assert.notEqual(r.status, 0);
      assert.equal(said(r).length, 1, r.stderr);
      assert.match(said(r)[0], message);
      assert.equal(r.mcconfig, null);
    });
  }

  it('builds and flashes with mcconfig -m when ESP-IDF can link the image', () => {
    allTools();
    const r = make();
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.mcconfig ?? '', new RegExp(`^ARGS -m -p esp32 -o ${at('out')} +manifest.json$`, 'm'));
  });
});
