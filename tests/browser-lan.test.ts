// The cross-site rule as a lab LAN meets it (docs/security.md): real headless Chromium inside a network
// namespace this test makes (unshare -n; needs root, as CI is), the simulator and the host server at
// LAN addresses, a web page at a third address. Over plain HTTP at an address Chromium sends no
// Fetch Metadata and no Origin on a no-cors GET, so an <img>, a no-cors fetch or a form's GET of an
// action looks like curl but for its User-Agent and Referer. tests/browser-lan-run.ts drives the
// namespace and reports; here are the assertions.

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';

// A veth pair stands for the lab's wire (the sandbox's kernel may lack the dummy driver); one end holds the
// addresses. The namespace's own /etc/hosts names the simulator as a module is named on a LAN (its .local name).
const HOSTS = path.join(os.tmpdir(), `browser-lan-hosts-${process.pid}`);
const SETUP = [`mount --bind "${HOSTS}" /etc/hosts`, 'ip link set lo up', 'ip link add lan0 type veth peer name lan1', 'ip link set lan1 up', 'ip addr add 10.77.0.2/24 dev lan0',
  'ip addr add 10.77.0.3/24 dev lan0', 'ip addr add 10.77.0.4/24 dev lan0', 'ip link set lan0 up'].join(' && ');

describe('browser on the lab LAN: a page elsewhere, plain HTTP at an address (network namespace)', function () {
  this.timeout(120_000);
  let seen: any;

  before(() => {
    const run = path.resolve(__dirname, 'browser-lan-run.js');
    fs.writeFileSync(HOSTS, '127.0.0.1 localhost\n10.77.0.2 brainstem-1234abcd.local\n');
    const r = spawnSync('unshare', ['-n', '-m', 'sh', '-c', `${SETUP} && exec "${process.execPath}" "${run}"`], { encoding: 'utf8', timeout: 110_000 });
    fs.rmSync(HOSTS, { force: true });
    assert.equal(r.status, 0, `the namespace run failed (this test needs root for unshare -n -m): ${r.stderr}`);
    seen = JSON.parse(r.stdout.trim().split('\n').pop()!);
  });

  const NAMES: { [target: string]: string } = { sim: 'simulator at its address', local: 'simulator at its .local name', host: 'host server' };
  for (const target of ['sim', 'local', 'host']) {
    it(`executes nothing the page fires at the ${NAMES[target]}: <img>, no-cors fetch, forms, a CORS PUT`, () => {
      const s = seen[target];
      const trace = `${s.answers.join('\n')}\n${s.log}`;
      assert.equal(s.put, 200);
      // The actions reached the server and were refused (Chromium reports one answer for requests of the
      // same URL made at once, so an <img> and a no-cors fetch of reset may show as one).
      const refused = (p: RegExp): number => s.answers.filter((a: string) => p.test(a) && / -> 403$/.test(a)).length;
      assert.ok(refused(/^GET \S+\/system\/0\/reset\b/) >= 2, `img or fetch, and the form's GET of reset refused:\n${trace}`);
      assert.ok(refused(/^GET \S+\/system\/0\/save\b/) >= 1, `img or fetch of save refused:\n${trace}`);
      assert.match(s.log, /<img> \/system\/0\/reset: error/);
      assert.match(s.log, /form get \/system\/0\/reset: submitted/);
      for (const a of s.answers) if (/\/system\/0\//.test(a)) assert.match(a, /-> (403|405)$/, trace);
      assert.match(s.log, /fetch cors PUT hbinterval: blocked/, 'the PUT needs a preflight, which the server refuses');
      assert.equal(s.afterAttack, 33, 'no PUT and no reset ran: the unsaved value survived');
      assert.equal(s.resetPending, false);
      assert.equal(s.afterOwnReset, seen.factory, 'no save ran: our own reset dropped the unsaved value');
    });
  }

  it('the console at the module\'s own address still sets a value and runs an action, with the proof header', () => {
    assert.match(seen.console[0], /^set = 44\b/);
    assert.equal(seen.console[1], 'done {}');
    assert.ok(seen.consoleSent.length >= 1);
    for (const h of seen.consoleSent) assert.match(h, /"x-requested-with":"brainstem-console"/);
    assert.equal(seen.afterConsole, 44);
    assert.equal(seen.consoleSaved, 44, 'the save ran: the value outlived a reset');
  });

  it('curl and Python write at the LAN address, to the simulator and through the host server', () => {
    assert.equal(seen.scriptsSim.curl, '200');
    assert.equal(seen.scriptsSim.python, '200 200');
    assert.equal(seen.scriptsHost.curl, '200');
    assert.equal(seen.scriptsHost.python, '200 200');
    assert.equal(seen.afterScripts, 24);
  });
});
