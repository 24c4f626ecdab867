// `make device PLATFORM=pico/pico_w` without the Pico tools: one line says which is missing and mcconfig
// never runs; with them (here a fake tree of the same shape and a fake mcconfig that records how it was
// called) mcconfig builds with -t build (it never waits for a board) and gets the tools' locations and
// bash for Moddable's make.pico.mk. No Moddable SDK and no Pico tool is needed.

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
/** The system's own directories: make, sh and git are there; /usr/local/bin, where a hand-installed
 *  picotool often lives, is left out so the machine's tools do not decide what the test sees. */
const SYSTEM_PATH = '/usr/bin:/bin';
/** A picotool the system itself has on SYSTEM_PATH (Debian's package), which the Makefile prefers. */
const systemPicotool = (): string | null => {
  const r = spawnSync('sh', ['-c', 'command -v picotool'], { env: { PATH: SYSTEM_PATH }, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
};

interface Run { status: number | null; stderr: string; mcconfig: string | null }

describe('make device PLATFORM=pico/pico_w', function () {
  this.timeout(20000);
  let tmp = '';
  const at = (...p: string[]) => path.join(tmp, ...p);
  const tool = (file: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  };

  /** Everything make.pico.mk looks for, under $HOME/pico (the default PICO_ROOT). */
  function picoTree(): void {
    for (const d of ['pico-sdk/src/rp2_common', 'pico-extras/src/rp2_common', 'pico-examples/build/generated/pico_base']) {
      fs.mkdirSync(at('home/pico', d), { recursive: true });
    }
    tool(at('home/pico/pico-sdk/build/pioasm/pioasm'));
    tool(at('home/pico/pico-sdk/build/_deps/picotool/picotool'));
    tool(at('gcc/bin/arm-none-eabi-gcc'));
    tool(at('gcc/bin/arm-none-eabi-g++'));
    tagSdk('2.2.0');
  }

  /** Makes the fake pico-sdk a git checkout whose one commit carries `tag`, as a clone of pico-sdk is. */
  function tagSdk(tag: string): void {
    const git = (...args: string[]) => {
      const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: at('home/pico/pico-sdk'), encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
    };
    git('init', '-q');
    git('commit', '-q', '--allow-empty', '-m', 'release');
    git('tag', tag);
  }

  function make(platform: string): Run {
    const log = at('mcconfig.log');
    fs.rmSync(log, { force: true });
    const env = {
      PATH: `${at('bin')}:${SYSTEM_PATH}`,
      HOME: at('home'),
      MODDABLE: at('moddable'),
      PICO_GCC_ROOT: at('gcc'),
      FAKE_LOG: log,
    };
    const r = spawnSync('make', ['-s', '-o', 'node_modules/.installed', 'device', `PLATFORM=${platform}`, `DEVICE_BUILD_DIR=${at('out')}`], {
      cwd: ROOT, env, encoding: 'utf8',
    });
    return { status: r.status, stderr: r.stderr, mcconfig: fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : null };
  }

  /** The lines of our own check (make adds its "***" line after them). */
  const said = (r: Run) => r.stderr.split('\n').filter((l) => l.startsWith('make device PLATFORM='));

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'make-device-'));
    fs.mkdirSync(at('moddable/build'), { recursive: true });
    fs.mkdirSync(at('bin'));
    fs.writeFileSync(at('bin/mcconfig'), '#!/bin/sh\n{ echo "ARGS $*"; env | grep -E "^(PICO_|PIOASM|UF2CONV|MAKEFLAGS)" | sort; } > "$FAKE_LOG"\n', { mode: 0o755 });
    tool(at('bin/cmake'));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('says in one line that the pico-sdk is missing, and runs no mcconfig', () => {
    const r = make('pico/pico_w');
    assert.notEqual(r.status, 0);
    assert.deepEqual(said(r), [`make device PLATFORM=pico/pico_w: no pico-sdk 2.2.0 at PICO_SDK_DIR=${at('home/pico/pico-sdk')} (docs/pico.md)`]);
    assert.equal(r.mcconfig, null);
  });

  it('says the pico-sdk is not a git checkout when it is a tree without git (make.pico.mk could not read its version)', () => {
    picoTree();
    fs.rmSync(at('home/pico/pico-sdk/.git'), { recursive: true });
    const r = make('pico/pico_w');
    assert.notEqual(r.status, 0);
    assert.deepEqual(said(r), [`make device PLATFORM=pico/pico_w: pico-sdk at PICO_SDK_DIR=${at('home/pico/pico-sdk')} is not a git checkout at tag 2.2.0 (no git tag); Moddable's make.pico.mk reads the version with git describe --tags (docs/pico.md)`]);
    assert.equal(r.mcconfig, null);
  });

  it('names the tag it found when the pico-sdk checkout is at another version', () => {
    picoTree();
    fs.rmSync(at('home/pico/pico-sdk/.git'), { recursive: true });
    tagSdk('2.1.1');
    const r = make('pico/pico_w');
    assert.notEqual(r.status, 0);
    assert.equal(said(r).length, 1, r.stderr);
    assert.match(said(r)[0], /is not a git checkout at tag 2\.2\.0 \(2\.1\.1\)/);
    assert.equal(r.mcconfig, null);
  });

  const PIECES: [string, string, RegExp][] = [
    ['pico-extras', 'home/pico/pico-extras', /no pico-extras at PICO_EXTRAS_DIR=/],
    ['a configured pico-examples', 'home/pico/pico-examples/build', /no configured pico-examples .* at PICO_EXAMPLES_DIR=/],
    ['the toolchain', 'gcc/bin/arm-none-eabi-gcc', /no arm-none-eabi-gcc at PICO_GCC_ROOT=.*gcc-arm-none-eabi/],
    ['the C++ library', 'gcc/bin/arm-none-eabi-g++', /arm-none-eabi-g\+\+ at PICO_GCC_ROOT=.* has no C\+\+ library \(Debian: libstdc\+\+-arm-none-eabi-newlib/],
    ['pioasm', 'home/pico/pico-sdk/build/pioasm', /no pioasm at PIOASM=/],
    ['picotool', 'home/pico/pico-sdk/build/_deps', /no picotool on PATH or at UF2CONV=/],
  ];
  for (const [what, remove, message] of PIECES) {
    it(`names ${what} when only it is missing`, () => {
      picoTree();
      fs.rmSync(at(remove), { recursive: true });
      const r = make('pico/pico_w');
      assert.notEqual(r.status, 0);
      assert.equal(said(r).length, 1, r.stderr);
      assert.match(said(r)[0], message);
      assert.equal(r.mcconfig, null);
    });
  }

  it('names the C++ library when arm-none-eabi-g++ cannot find <cstring> (a toolchain without libstdc++)', () => {
    picoTree();
    fs.writeFileSync(at('gcc/bin/arm-none-eabi-g++'), '#!/bin/sh\necho "<stdin>:1:10: fatal error: cstring: No such file or directory" >&2\nexit 1\n');
    const r = make('pico/pico_w');
    assert.notEqual(r.status, 0);
    assert.deepEqual(said(r), [`make device PLATFORM=pico/pico_w: arm-none-eabi-g++ at PICO_GCC_ROOT=${at('gcc')} has no C++ library (Debian: libstdc++-arm-none-eabi-newlib; pico-extras' audio.cpp needs <cstring>) (docs/pico.md)`]);
    assert.equal(r.mcconfig, null);
  });

  it('builds with -t build and hands mcconfig the tools and bash when all are there', () => {
    picoTree();
    const r = make('pico/pico_w');
    assert.equal(r.status, 0, r.stderr);
    const log = r.mcconfig ?? '';
    assert.match(log, new RegExp(`^ARGS -m -p pico/pico_w -t build -o ${at('out')} +manifest.json$`, 'm'));
    assert.match(log, new RegExp(`^PICO_SDK_DIR=${at('home/pico/pico-sdk')}$`, 'm'));
    assert.match(log, new RegExp(`^PICO_GCC_ROOT=${at('gcc')}$`, 'm'));
    assert.match(log, new RegExp(`^UF2CONV=${systemPicotool() ?? at('home/pico/pico-sdk/build/_deps/picotool/picotool')}$`, 'm'));
    assert.match(log, /^MAKEFLAGS=SHELL=\/bin\/bash$/m);
    assert.match(log, /^MAKEFLAGS_JOBS=--jobs \d+$/m);
  });

  it('takes the picotool on PATH before the one in the pico-sdk build', () => {
    picoTree();
    tool(at('bin/picotool'));
    const r = make('pico/pico_w');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.mcconfig ?? '', new RegExp(`^UF2CONV=${at('bin/picotool')}$`, 'm'));
  });

  it('leaves other platforms alone: PLATFORM=lin needs no Pico tool and may deploy', () => {
    const r = make('lin');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.mcconfig ?? '', /^ARGS -m -p lin -o \S+ +manifest.json$/m);
    assert.doesNotMatch(r.mcconfig ?? '', /PICO_SDK_DIR/);
  });
});
