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
});
