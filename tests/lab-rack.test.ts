// A rack any DNS-SD client finds: two simulators of 50 modules each (`--devices 50 --announce --host
// 0.0.0.0`) inside a network and mount namespace this test makes (unshare -n -m: a veth interface with
// multicast, a private /run with its own D-Bus system bus and avahi-daemon), browsed by two independent
// implementations, python-zeroconf (Debian python3-zeroconf) and avahi (avahi-browse, Debian
// avahi-utils), from the moment the simulators start. Then the 18-byte self-pointer and a packet with
// counts past its end go to the group, and a fresh python-zeroconf browse finds all 100 again.
// Needs root (CI is) and the Debian packages the Makefile installs (make mdns-tools).

import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';

const CONF = path.resolve(__dirname, '../../tests/mdns/avahi-daemon.conf');
const SETUP = [
  'ip link set lo up',
  'ip link add v0 type veth peer name v1',
  'ip link set v1 up',
  'ip addr add 10.77.0.1/24 dev v0',
  'ip link set v0 multicast on',
  'ip link set v0 up',
  'ip route add 224.0.0.0/4 dev v0',
  'mount -t tmpfs tmpfs /run',
  'mkdir -p /run/dbus /run/avahi-daemon',
  'dbus-daemon --system --fork --nopidfile',
  `avahi-daemon --no-drop-root --no-chroot --no-rlimits -D -f "${CONF}"`,
  'for i in $(seq 50); do avahi-daemon --check 2>/dev/null && break; sleep 0.1; done',
].join(' && ');

describe('a rack of 100 simulated modules found by python-zeroconf and avahi (network namespace)', function () {
  this.timeout(90000);

  it('both find all 100 with the right TXT within 10 s, and a malformed packet leaves every responder answering', () => {
    const run = path.resolve(__dirname, 'lab-rack-run.js');
    const r = spawnSync('unshare', ['-n', '-m', '--propagation', 'private', 'sh', '-c', `${SETUP} && "${process.execPath}" "${run}"; s=$?; avahi-daemon -k; exit $s`],
      { encoding: 'utf8', timeout: 80000 });
    assert.equal(r.status, 0, `the namespace run failed (needs root, avahi-daemon, dbus, python3-zeroconf): ${r.stderr}`);
    const seen = JSON.parse(r.stdout.trim().split('\n').pop()!);
    for (const client of ['zeroconf', 'avahi', 'afterMalformed']) {
      const f = seen[client];
      assert.equal(f.count, 100, `${client} found ${f.count} of 100: ${JSON.stringify(f)}`);
      assert.deepEqual(f.badTxt, [], `${client}: wrong TXT`);
      assert.ok(f.ms >= 0 && f.ms <= 10000, `${client} took ${f.ms} ms`);
    }
    assert.deepEqual(seen.http, [200, 200]);
    assert.deepEqual(seen.alive, [null, null]);
  });
});
