// The DNS message reader and writer (src/dns/): bounds, compression pointers that must point
// backwards, label and name limits, counts that cannot fit, and names compressed by the writer read
// back by an independent implementation (dns-packet).

import { strict as assert } from 'node:assert';
import packet from 'dns-packet';
import { DnsReader, nameEquals, skipName, TYPE_A, TYPE_SRV } from '../src/dns/dns-reader';
import { DnsWriter, MESSAGE_BYTES, SECTION_ANSWER } from '../src/dns/dns-writer';
import { ipv4Bytes, numberedName, txtData, wireName } from '../src/dns/mdns-names';
import { SELF_POINTER } from './mdns-helpers';

const header = (qd: number, an = 0): number[] => [0, 0, 0, 0, qd >> 8, qd & 255, an >> 8, an & 255, 0, 0, 0, 0];

describe('DNS message reader', () => {
  it('refuses a name that is a pointer to itself (the 18-byte packet), and one that points forward', () => {
    const r = new DnsReader();
    assert.equal(SELF_POINTER.length, 18);
    assert.equal(r.reset(SELF_POINTER, SELF_POINTER.length), true);
    assert.equal(r.question(), false);
    assert.equal(skipName(SELF_POINTER, 18, 12), -1);
    const forward = Uint8Array.from([...header(1), 0xc0, 14, 1, 97, 0, 0, 1, 0, 1]);
    assert.equal(skipName(forward, forward.length, 12), -1);
  });

  it('refuses a loop of pointers that each point backwards from where they stand', () => {
    // "a" then a pointer back to "a": every hop is backwards from the pointer, but lands on the same label.
    const loop = Uint8Array.from([...header(1), 1, 97, 0xc0, 12, 0, 1, 0, 1]);
    assert.equal(skipName(loop, loop.length, 12), -1);
    // Two names pointing at each other.
    const pair = Uint8Array.from([...header(2), 1, 97, 0xc0, 16, 1, 98, 0xc0, 12]);
    assert.equal(skipName(pair, pair.length, 12), -1);
    assert.equal(skipName(pair, pair.length, 16), -1);
  });

  it('follows a good pointer and compares names in any case', () => {
    const msg = Uint8Array.from([...header(2), 5, ...Buffer.from('Local'), 0, 0, 1, 0, 1, 3, ...Buffer.from('abc'), 0xc0, 12, 0, 1, 0, 1]);
    const r = new DnsReader();
    assert.ok(r.reset(msg, msg.length));
    assert.ok(r.question());
    assert.ok(r.question());
    assert.equal(r.type, TYPE_A);
    assert.ok(nameEquals(msg, r.nameAt, wireName('ABC.local'), 0));
    assert.ok(!nameEquals(msg, r.nameAt, wireName('abd.local'), 0));
    assert.ok(!nameEquals(msg, r.nameAt, wireName('abc'), 0));
  });

  it('refuses labels of more than 63 bytes, names of more than 255, and names running past the end', () => {
    const long = Uint8Array.from([...header(1), 64, ...new Array(64).fill(97), 0, 0, 1, 0, 1]);
    assert.equal(skipName(long, long.length, 12), -1);
    const labels: number[] = [];
    for (let i = 0; i < 5; i++) labels.push(60, ...new Array(60).fill(97));
    const tooLong = Uint8Array.from([...header(1), ...labels, 0, 0, 1, 0, 1]);
    assert.equal(skipName(tooLong, tooLong.length, 12), -1);
    const cut = Uint8Array.from([...header(1), 10, 97, 97]);
    assert.equal(skipName(cut, cut.length, 12), -1);
  });

  it('refuses counts larger than the packet can hold, and records that end past it', () => {
    const r = new DnsReader();
    const huge = Uint8Array.from([0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 1, 0, 1]);
    assert.equal(r.reset(huge, huge.length), false);
    // One answer whose data length says 200 bytes where 4 follow.
    const mid = Uint8Array.from([...header(0, 1), 0, 0, 1, 0, 1, 0, 0, 0, 120, 0, 200, 1, 2, 3, 4]);
    assert.equal(r.reset(mid, mid.length), true);
    assert.equal(r.record(), false);
    // A record cut inside its fixed part.
    const fixed = Uint8Array.from([...header(0, 1), 1, 97, 0, 0, 1, 0, 1, 0, 0, 0, 120, 0]);
    assert.equal(r.reset(fixed, fixed.length), true);
    assert.equal(r.record(), false);
    assert.equal(r.reset(new Uint8Array(11), 11), false);
  });
});

describe('DNS message writer', () => {
  it('compresses names against those already written, read back by dns-packet', () => {
    const w = new DnsWriter();
    w.begin(7, 0x8400);
    const host = wireName('brainstem-1.local');
    const inst = wireName('brainstem-1._http._tcp.local');
    assert.ok(w.record(inst, TYPE_SRV, true, 120) && w.short(0) && w.short(0) && w.short(8080) && w.nameData(host) && w.end(SECTION_ANSWER));
    assert.ok(w.record(host, TYPE_A, true, 120) && w.data(Uint8Array.of(10, 0, 0, 2)) && w.end(SECTION_ANSWER));
    const bytes = Buffer.from(w.finish());
    const d = packet.decode(bytes);
    assert.equal(d.id, 7);
    assert.equal(d.answers!.length, 2);
    assert.deepEqual((d.answers![0] as any).data, { priority: 0, weight: 0, port: 8080, target: 'brainstem-1.local' });
    assert.equal(d.answers![1].name, 'brainstem-1.local');
    assert.equal((d.answers![1] as any).data, '10.0.0.2');
    // The label brainstem-1 twice (instance, then the SRV target brainstem-1.local, its .local a
    // pointer); the A record's name is a pointer to the SRV target.
    assert.equal(bytes.toString('latin1').split('brainstem-1').length - 1, 2);
    assert.ok(bytes.length <= 88, `${bytes.length} bytes`);
  });

  it('never writes past its limit: a record that does not fit is taken back whole', () => {
    const w = new DnsWriter();
    w.begin(0, 0x8400, 100);
    const name = wireName('x.local');
    let n = 0;
    while (w.record(name, 16, true, 4500) && w.data(new Uint8Array(30)) && w.end(SECTION_ANSWER)) n++;
    const bytes = Buffer.from(w.finish());
    assert.ok(bytes.length <= 100);
    assert.equal(packet.decode(bytes).answers!.length, n);
    assert.equal(MESSAGE_BYTES, 1460);
  });

  it('makes wire names, TXT data, IPv4 bytes and numbered names', () => {
    assert.deepEqual([...wireName('a.bc')], [1, 97, 2, 98, 99, 0]);
    assert.deepEqual([...txtData({ serial: '0x1', auth: 'none' })], [10, ...Buffer.from('serial=0x1'), 9, ...Buffer.from('auth=none')]);
    assert.deepEqual([...ipv4Bytes('10.0.255.1')!], [10, 0, 255, 1]);
    assert.equal(ipv4Bytes('10.0.256.1'), null);
    assert.equal(ipv4Bytes('10.0.1'), null);
    assert.equal(numberedName('brainstem-1', 2), 'brainstem-1-2');
    assert.equal(numberedName('a'.repeat(63), 3).length, 63);
  });
});
