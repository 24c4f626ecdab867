// `make help` lists every target a user runs, one line each.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';

const ROOT = path.resolve(__dirname, '../..');
/** Targets that only other targets use. */
const INTERNAL = new Set(['all', 'moddable-tools']);

describe('make help', () => {
  it('lists every phony target but the internal ones, one line each', () => {
    const makefile = fs.readFileSync(path.join(ROOT, 'Makefile'), 'utf8');
    const phony = [...makefile.matchAll(/^\.PHONY:(.*)$/gm)].flatMap((m) => m[1].trim().split(/\s+/)).filter((t) => !INTERNAL.has(t));
    const r = spawnSync('make', ['--no-print-directory', '-s', 'help'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    const listed = lines.map((l) => /^ {2}make (\S+) +\S/.exec(l)?.[1]);
    assert.ok(listed.every((t) => t !== undefined), r.stdout);
    assert.deepEqual([...listed].sort(), [...new Set(phony)].sort());
  });

  it('starts every description in one column, past the longest target name', () => {
    const r = spawnSync('make', ['--no-print-directory', '-s', 'help'], { cwd: ROOT, encoding: 'utf8' });
    const columns = r.stdout.trimEnd().split('\n').map((l) => {
      const m = /^( {2}make (\S+) +)\S/.exec(l);
      assert.ok(m, l);
      return m[1].length;
    });
    assert.equal(new Set(columns).size, 1, r.stdout);
  });
});

describe('make sim and make host-server', () => {
  // A user sees the command each one runs, the same way (HOST_ARGS/SIM_ARGS appended), before its output.
  for (const [target, vars, main] of [['sim', 'SIM_ARGS=--help', 'host-sim'], ['host-server', 'HOST_ARGS=--help', 'host-server']]) {
    it(`make ${target} echoes the command it runs`, function () {
      this.timeout(120000); // make first brings build/ up to date
      const r = spawnSync('make', ['--no-print-directory', target, vars], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      const lines = r.stdout.split('\n');
      const at = lines.indexOf(`node build/${main}/main.js --help`);
      assert.ok(at >= 0, r.stdout);
      assert.match(lines[at + 1], /^usage: /, 'then its usage');
    });
  }
});
