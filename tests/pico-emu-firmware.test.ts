// The Pico W firmware image on an emulated board (rp2040js with the CYW43439 model of tools/pico-emu)
// on a TAP link in a network namespace of its own (tools/pico-emu/netns.sh): it joins, gets its
// address from dnsmasq and answers curl. What it needs: tests/pico-emu-run.ts; skips with the reason
// when one is missing.
import { strict as assert } from 'node:assert';
import { missing, runBoard as run } from './pico-emu-run';

const REAL_SECONDS = 240;

/** Runs the board until `done` says so from its output (or the time is up); returns the output. */
function runBoard(done: (out: string) => boolean, mac = '28:cd:c1:00:00:01'): Promise<string> {
  return run({ seconds: REAL_SECONDS, mac, done, env: { PICO_EMU_BROWSE: '1' } });
}

describe('Pico W image on an emulated board (rp2040js + CYW43439 model)', function () {
  const why = missing();
  before(function () {
    if (why) this.skip();
  });

  it(`boots, joins, takes its DHCP address over the TAP link and answers curl${why ? ` (skipped: ${why})` : ''}`, async function () {
    this.timeout((REAL_SECONDS + 30) * 1000);
    const out = await runBoard((o) => /^curl: .*HTTP 200/m.test(o));
    assert.match(out, /cyw43: firmware running/, out);
    assert.match(out, /cyw43: join "lab": joined/, out);
    assert.match(out, /DHCPACK\(pico0\) 192\.168\.77\.50 28:cd:c1:00:00:01/, out);
    assert.match(out, /Wi-Fi: address 192\.168\.77\.50/, out);
    const serial = /REST API on port 80, serial 0x([0-9a-f]+)/.exec(out);
    assert.ok(serial, out);
    const answer = /^curl: (\{.*\}) \(HTTP 200/m.exec(out);
    assert.ok(answer, out);
    assert.equal(JSON.parse(answer[1]).response.value, parseInt(serial[1], 16));
  });

  it(`gives two boards with two MACs two serials and two DNS-SD names (python-zeroconf)${why ? ` (skipped: ${why})` : ''}`, async function () {
    this.timeout(2 * (REAL_SECONDS + 30) * 1000);
    const seen: string[] = [];
    for (const mac of ['28:cd:c1:00:00:01', '28:cd:c1:00:00:02']) {
      // A whole line (its newline arrived): the run is stopped once it is seen, and the shell's
      // "Terminated" may follow right after.
      const found = /^dns-sd: (brainstem-[0-9a-f]+)\._brainstem\._tcp\.local\. (\S+) (\d+) serial=(0x[0-9A-Fa-f]{8})\n/m;
      const out = await runBoard((o) => found.test(o), mac);
      const serial = /REST API on port 80, serial 0x([0-9a-f]+)/.exec(out);
      const dnssd = found.exec(out);
      assert.ok(serial && dnssd, out);
      assert.equal(serial[1], mac.split(':').slice(2).join('').replace(/^0+/, ''), 'the serial is the chip MAC\'s last four bytes');
      assert.equal(`${dnssd[2]}:${dnssd[3]}`, '192.168.77.50:80');
      seen.push(`${serial[1]} ${dnssd[1]} ${dnssd[4]}`);
    }
    assert.deepEqual(seen, ['c1000001 brainstem-c1000001 0xC1000001', 'c1000002 brainstem-c1000002 0xC1000002']);
  });
});
