// Discovery for real: multicast DNS inside a network namespace this test makes (unshare -n, loopback
// up with multicast and a route for 224.0.0.0/4), so nothing leaves the machine. Needs root (CI is).
// The namespace's own processes are driven by tests/lab-netns-run.ts, which reports what it saw.

import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';

const NETNS_SETUP = 'ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo';

/** Run a compiled runner inside a namespace of its own; the last line it prints, parsed. */
function inNamespace(runner: string): any {
  const run = path.resolve(__dirname, runner);
  const r = spawnSync('unshare', ['-n', 'sh', '-c', `${NETNS_SETUP} && exec "${process.execPath}" "${run}"`], { encoding: 'utf8', timeout: 50000 });
  assert.equal(r.status, 0, `the namespace run failed (this test needs root for unshare -n): ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

describe('lab discovery by multicast DNS (network namespace)', function () {
  this.timeout(60000);

  it('finds announced modules within 5 s, renames a name conflict, and judges lying TXT records by what modules answer', () => {
    const seen = inNamespace('lab-netns-run.js');
    assert.equal(seen.announcedA, 'brainstem-f0000001.local');
    // Both services, on the simulator's port, with the TXT record of docs/lab.md.
    for (const type of ['brainstem', 'http']) {
      const s = seen.seen[type];
      assert.ok(s, `_${type}._tcp of brainstem-f0000001 seen`);
      assert.equal(s.host, 'brainstem-f0000001.local');
      assert.deepEqual(s.txt, { serial: '0xF0000001', model: '4', fw: '2.11.3', api: '/api/v1', auth: 'none' });
    }
    assert.ok(seen.foundMs >= 0 && seen.foundMs <= 5000, `found after ${seen.foundMs} ms`);
    assert.deepEqual(seen.forwarded, [200, 200]);
    // The second module with host name brainstem-f0000001 probed, found it taken, and took -2.
    assert.equal(seen.announcedC, 'brainstem-f0000001-2.local');
    assert.equal(seen.renameLogged, true);
    assert.ok(seen.lateFoundMs <= 5000, `late module found after ${seen.lateFoundMs} ms`);
    assert.equal(seen.duplicateStatus, 409);
    // TXT said 0xDEADBEEF, the module at that address answers 0xF0000002: the module's word stands.
    assert.equal(seen.listedDeadbeef, false);
    // An announcement of an address where nothing answers: listed from its TXT, offline, 502.
    assert.equal(seen.ghost?.online, false);
    assert.deepEqual(seen.ghostAnswer, { status: 502, error: 'aErrConnection' });
    assert.equal(seen.healthy, 200);
    assert.equal(seen.targets, 3);
  });

  it('announces a simulated module again after a reset that brings a new host name into effect, and not after one that changes nothing', () => {
    const seen = inNamespace('lab-reannounce-run.js');
    assert.deepEqual(seen.before, ['up brainstem-f0000011 brainstem-f0000011.local']);
    assert.deepEqual([seen.plainReset, seen.put, seen.save, seen.reset], [200, 200, 200, 200]);
    assert.deepEqual(seen.afterPlainReset, seen.before, 'a reset that changes nothing announces nothing new');
    assert.deepEqual(seen.beforeReset, seen.before, 'a host name not yet in effect is not announced');
    // The old name withdrawn (goodbye, TTL 0) and the new one announced, within 5 s of the reset.
    const [down, up] = seen.after.slice(1);
    assert.match(down, /^down brainstem-f0000011 \+\d+$/);
    assert.equal(up, 'up bench-f11 bench-f11.local');
    assert.ok(Number(down.split('+')[1]) <= 5000, down);
    assert.ok(seen.log.some((l: string) => /0xF0000011 announced again as bench-f11\.local \(was brainstem-f0000011\.local\)/.test(l)), seen.log.join('\n'));
  });
});
