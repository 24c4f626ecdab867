// The simulator's command line as a user meets it: a problem is one `error: …` line on stderr (with
// the usage lines that matter for a malformed command line), exit status 2, and no usage dump.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { usageLines } from '../host-sim/cli';
import { USAGE } from '../host-sim/options';
import { startSim } from './sim-helpers';
import { reachable } from '../host-sim/reachable';

const MAIN = path.resolve(__dirname, '../host-sim/main.js');

function run(args: string[]): { status: number | null; stdout: string; stderr: string[] } {
  const r = spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', timeout: 20000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.split('\n').filter((l) => l !== '') };
}

describe('simulator command line', function () {
  this.timeout(20000); // each case starts a Node process: seconds on a loaded machine
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

  it('--host 0.0.0.0 prints addresses one can connect to: loopback, and this machine\'s own', function () {
    this.timeout(30000);
    // A network namespace of its own (unshare -n, as root): loopback and one veth at 10.9.8.7, nothing else.
    const script = [
      'ip link set lo up && ip link add v0 type veth peer name v1 && ip addr add 10.9.8.7/24 dev v0 && ip link set v0 up && ip link set v1 up || exit 3',
      'out=$(mktemp)',
      `"${process.execPath}" "${MAIN}" --host 0.0.0.0 --port 0 --no-state > "$out" &`,
      'for i in $(seq 100); do grep -q "^try: " "$out" && break; sleep 0.1; done',
      'cat "$out"; echo ---',
      'curl -s "$(sed -n "s/^try: curl //p" "$out")"; echo; echo ---',
      'curl -s "$(grep -o "http://10\\.9\\.8\\.7:[0-9]*" "$out" | head -1)/api/v1/device/system/0/serialnumber"; echo',
      'kill $!; rm -f "$out"',
    ].join('\n');
    const r = spawnSync('unshare', ['-n', 'sh', '-c', script], { encoding: 'utf8', timeout: 25000 });
    assert.equal(r.status, 0, `the namespace run failed (this test needs root for unshare -n): ${r.stderr}`);
    const [printed, viaTry, viaOther] = r.stdout.split('---\n');
    assert.doesNotMatch(printed, /0\.0\.0\.0:/, 'no URL at the wildcard address');
    assert.match(printed, /^try: curl http:\/\/127\.0\.0\.1:\d+\/api\/v1\/device\/system\/0\/serialnumber$/m);
    assert.match(printed, /^web console: http:\/\/127\.0\.0\.1:\d+\/$/m);
    assert.match(printed, /^listening on every address \(0\.0\.0\.0\); from other machines: http:\/\/10\.9\.8\.7:\d+\/$/m);
    for (const answer of [viaTry, viaOther]) assert.equal(JSON.parse(answer).response.value, 305441741, r.stdout);
  });

  it('reachable: a named address as it is; a wildcard as loopback and the machine\'s addresses (IPv6 for :: only, no link-local)', () => {
    const nic = (address: string, family: 'IPv4' | 'IPv6', internal = false) => ({ address, family, internal, netmask: '', mac: '', cidr: null }) as never;
    const interfaces = { lo: [nic('127.0.0.1', 'IPv4', true), nic('::1', 'IPv6', true)], eth0: [nic('10.0.0.5', 'IPv4'), nic('fe80::1', 'IPv6'), nic('2001:db8::5', 'IPv6')] };
    assert.deepEqual(reachable('127.0.0.1', 9005, interfaces), { base: 'http://127.0.0.1:9005', others: null });
    assert.deepEqual(reachable('::1', 9005, interfaces), { base: 'http://[::1]:9005', others: null });
    assert.deepEqual(reachable('0.0.0.0', 9005, interfaces), { base: 'http://127.0.0.1:9005', others: ['http://10.0.0.5:9005'] });
    assert.deepEqual(reachable('::', 9005, interfaces), { base: 'http://127.0.0.1:9005', others: ['http://10.0.0.5:9005', 'http://[2001:db8::5]:9005'] });
  });
});
