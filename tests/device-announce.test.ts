// The module's DNS-SD announcement (src/device/announce.ts) as main.ts starts it, on the fakes: the
// project's responder on the ECMA-419 UDP socket (tests/fakes/udp.ts behaves as the SDK's lwIP socket),
// the group joined, the TXT record DECISIONS names, queries answered, a taken name renamed and then
// accepted by the Host check, packets that must be dropped, and a new announcement after a save + reset
// that changes hostname and port. Every message is read by dns-packet.

import { strict as assert } from 'node:assert';
import packet from 'dns-packet';
import { ask, FULL_BOARD, freshWorld, get, net, platform, put } from './fakes/world';
import { setConfig } from './fakes/config';
import UDP from './fakes/udp';
import { query, SELF_POINTER } from './mdns-helpers';

const MAIN = require.resolve('../src/device/main');

function boot(): void {
  net.reset();
  delete require.cache[MAIN];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh evaluation, as a restart does
  require(MAIN);
}

function ok(port: number, request: string): void {
  const r = ask(port, request);
  assert.equal(r.status, 200, JSON.stringify(r.json));
}

const decoded = (from = 0): packet.Packet[] => UDP.sent.slice(from).map((s) => packet.decode(Buffer.from(s.bytes)));
const records = (from = 0): any[] => decoded(from).flatMap((d) => [...(d.answers ?? []), ...(d.additionals ?? [])]);
const txt = (from = 0): string[] | undefined => {
  const t = records(from).find((a) => a.type === 'TXT');
  return t && (t.data as Buffer[]).map((b) => b.toString());
};
const TXT = (fw = '1.2.3'): string[] => ['serial=0x1234ABCD', `model=${FULL_BOARD.model}`, `fw=${fw}`, 'api=/api/v1', 'auth=none'];

describe('device announcement (DNS-SD) on the fakes', () => {
  beforeEach(() => {
    freshWorld();
    UDP.reset();
    setConfig({ http: { port: 8080, connections: 4 }, serial: '0x1234ABCD', firmware: { major: 1, minor: 2, patch: 3 }, board: FULL_BOARD });
  });
  after(() => { delete require.cache[MAIN]; net.reset(); UDP.reset(); });

  it('announces when it starts after the chip\'s millisecond count passed 2^31 (Time.ticks negative)', () => {
    net.reset();
    net.now = 2 ** 31 + 5000; // tests/fakes/time.ts: Time.ticks reads -2^31 + 5000, as an ESP32's does
    delete require.cache[MAIN];
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh evaluation, as a boot does
    require(MAIN);
    net.advance(3000);
    assert.ok(net.traces.some((t) => t === 'announced brainstem-1234abcd.local (_http._tcp, _brainstem._tcp) on port 8080\n'), net.traces.join(''));
    assert.ok(decoded().filter((d) => d.type === 'response').length >= 1, 'no announcement sent');
  });

  it('joins 224.0.0.251 on port 5353, probes, and announces brainstem-{serial}.local with both services and the TXT record', () => {
    boot();
    net.advance(3000);
    const [socket] = UDP.open;
    assert.equal(socket.port, 5353);
    assert.deepEqual([...socket.groups], ['224.0.0.251']);
    const probes = decoded().filter((d) => d.type === 'query');
    assert.equal(probes.length, 3);
    assert.deepEqual(probes[0].questions!.map((q) => q.name), ['brainstem-1234abcd.local', 'brainstem-1234abcd._http._tcp.local', 'brainstem-1234abcd._brainstem._tcp.local']);
    assert.ok(UDP.sent.every((s) => s.address === '224.0.0.251' && s.port === 5353));
    const rr = records();
    assert.equal(rr.find((a) => a.type === 'A').data, platform.ip);
    assert.deepEqual(rr.filter((a) => a.type === 'SRV').map((a) => a.data.port), [8080, 8080, 8080, 8080]);
    assert.deepEqual(txt(), TXT());
    assert.ok(net.traces.some((t) => t === 'announced brainstem-1234abcd.local (_http._tcp, _brainstem._tcp) on port 8080\n'));
  });

  it('answers a PTR query sent to the group, and still answers after an 18-byte self-pointer and a huge count', () => {
    boot();
    net.advance(3000);
    const from = UDP.sent.length;
    UDP.deliver(SELF_POINTER, '192.168.1.9', 5353);
    const huge = Buffer.from(query([{ name: '_brainstem._tcp.local', type: 'PTR' }]));
    huge.writeUInt16BE(0xffff, 4);
    UDP.deliver(huge, '192.168.1.9', 5353);
    UDP.deliver(query([{ name: '_brainstem._tcp.local', type: 'PTR' }]), '192.168.1.9', 5353);
    net.advance(200);
    const answers = decoded(from).flatMap((d) => d.answers ?? []) as any[];
    assert.deepEqual(answers.map((a) => `${a.type} ${a.data}`), ['PTR brainstem-1234abcd._brainstem._tcp.local']);
    assert.deepEqual(txt(from), TXT());
    ok(8080, get('system/0/serialnumber'));
  });

  it('takes brainstem-…-2 when the name is answered for while it probes, and the Host check accepts that name', () => {
    boot();
    net.advance(100);
    const answer = packet.encode({ type: 'response', flags: 0x8400, answers: [{ type: 'A', name: 'brainstem-1234abcd.local', ttl: 120, data: '192.168.1.77' }] });
    UDP.deliver(answer, '192.168.1.77', 5353);
    net.advance(3000);
    assert.ok(net.traces.some((t) => t.startsWith('announced brainstem-1234abcd-2.local')));
    assert.ok(records().some((a) => a.name === 'brainstem-1234abcd-2.local'));
    const host = (name: string): number => ask(8080, `GET /api/v1/device/system/0/model HTTP/1.1\r\nHost: ${name}\r\n\r\n`).status;
    assert.equal(host('brainstem-1234abcd-2.local'), 200);
    assert.equal(host('BRAINSTEM-1234ABCD-2'), 200);
    assert.equal(host('brainstem-1234abcd-3.local'), 403);
  });

  it('serves on unannounced when no socket can be made, and when lwIP refuses to send', () => {
    UDP.broken = true;
    boot();
    net.advance(3000);
    assert.ok(net.traces.some((t) => t.startsWith('not announced: bind failed')));
    ok(8080, get('system/0/serialnumber'));
    UDP.reset();
    UDP.refuseWrites = 1000;
    boot();
    net.advance(3000);
    ok(8080, get('system/0/serialnumber'));
  });

  it('announces nothing when the build config says so (config.announce false)', () => {
    setConfig({ http: { port: 8080, connections: 4 }, serial: '0x1234ABCD', board: FULL_BOARD, announce: false });
    boot();
    net.advance(3000);
    assert.equal(UDP.open.length, 0);
    assert.ok(net.traces.some((t) => t.startsWith('not announced: config.announce is false')));
    ok(8080, get('system/0/serialnumber'));
  });

  it('announces again after a save + reset that changes hostname and port (goodbye first), and not after one that changes neither', () => {
    platform.chipRestarts = false;
    boot();
    net.advance(3000);
    let from = UDP.sent.length;
    ok(8080, get('system/0/reset'));
    net.advance(3000);
    assert.equal(UDP.sent.length, from, 'nothing changed: nothing sent');
    ok(8080, put('ethernet/0/hostname', 'bench-a'));
    ok(8080, put('ethernet/0/interfaceport/0', 9090));
    ok(8080, get('system/0/save'));
    from = UDP.sent.length;
    ok(8080, get('system/0/reset'));
    net.advance(3000);
    const after = records(from);
    assert.ok(after.some((a) => a.name === 'brainstem-1234abcd.local' && a.ttl === 0), 'goodbye for the old name');
    assert.ok(after.some((a) => a.name === 'bench-a.local' && a.ttl === 120));
    assert.ok(after.filter((a) => a.type === 'SRV' && a.ttl > 0).every((a) => a.data.port === 9090));
  });
});
