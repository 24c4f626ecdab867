// The simulator's command line as a user meets it: a problem is one `error: …` line on stderr (with
// the usage lines that matter for a malformed command line), exit status 2, and no usage dump.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { usageLines } from '../host-sim/cli';
import { USAGE } from '../host-sim/options';
import { startSim } from './sim-helpers';

const MAIN = path.resolve(__dirname, '../host-sim/main.js');

function run(args: string[]): { status: number | null; stdout: string; stderr: string[] } {
  const r = spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', timeout: 20000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.split('\n').filter((l) => l !== '') };
}

describe('simulator command line', () => {
  const cases: [string[], RegExp, number][] = [
    [['--bogus'], /^error: unknown option --bogus \(--help lists the options\)$/, 0],
    [['--prot', '9'], /^error: unknown option --prot; did you mean:$/, 1],
    [['--port'], /^error: --port needs a value$/, 1],
    [['--no-state=1'], /^error: --no-state takes no value$/, 1],
    [['extra'], /^error: unexpected argument 'extra': every option starts with --/, 0],
    [['--port', '70000'], /^error: --port must be an integer 0\.\.65535, got '70000'$/, 0],
    [['--profile', 'nope'], /^error: unknown profile 'nope'; profiles: everything, /, 0],
    [['--no-state', '--state-file', 'x.json'], /^error: --state-file and --no-state exclude each other$/, 0],
  ];
  for (const [args, first, hints] of cases) {
    it(`${args.join(' ')}: one error line${hints ? ' and the usage line concerned' : ''}, exit 2`, () => {
      const r = run(args);
      assert.equal(r.status, 2);
      assert.equal(r.stdout, '');
      assert.match(r.stderr[0], first);
      assert.equal(r.stderr.length, 1 + hints, r.stderr.join('\n'));
      for (const line of r.stderr.slice(1)) assert.ok(USAGE.includes(line), `a usage line: ${line}`);
    });
  }

  it('--help prints the usage on stdout, exit 0', () => {
    const r = run(['--help']);
    assert.equal(r.status, 0);
    assert.equal(r.stdout.trim(), USAGE);
    assert.deepEqual(r.stderr, []);
  });

  it('a busy port: one line that says what to do, exit 2', async () => {
    const sim = await startSim(['--no-state']);
    try {
      const r = run(['--port', String(sim.port), '--no-state']);
      assert.equal(r.status, 2);
      assert.deepEqual(r.stderr, [`error: port ${sim.port} is busy: pick another with --port N, or --port 0 for any free one`]);
    } finally {
      await sim.stop();
    }
  });

  it('usageLines gives an option its line and the lines that continue it', () => {
    assert.equal(usageLines(USAGE, '--serial').length, 2);
    assert.deepEqual(usageLines(USAGE, '--port'), ['  --port N              TCP port (default 9005; 0 picks a free one)']);
    assert.deepEqual(usageLines(USAGE, '--nothing'), []);
  });
});
