// Property-based fuzzing of the DNS reader and the mDNS responder (fast-check), as the HTTP core is
// fuzzed (tests/fuzz.test.ts): `make test` runs a bounded number of cases, `make fuzz` many more
// (FUZZ_RUNS). Properties: random bytes, mutated real queries and responses, pointer loops, labels and
// records past the end and counts larger than the packet never throw out of the reader or the
// responder and never loop (every walk ends within a bound of steps); after any of them the responder
// still answers a good query.

import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import packet from 'dns-packet';
import { DnsReader, skipName } from '../src/dns/dns-reader';
import { query, Rig } from './mdns-helpers';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

/** Reads a whole message the way the responder does; counts what it read. Never throws. */
function walk(bytes: Uint8Array): number {
  const r = new DnsReader();
  if (!r.reset(bytes, bytes.length)) return 0;
  let n = 0;
  for (let q = 0; q < r.questions && r.question(); q++) n++;
  const records = r.answers + r.authorities + r.additionals;
  for (let i = 0; i < records && r.record(); i++) {
    if (r.type === 12) skipName(bytes, bytes.length, r.dataAt);
    n++;
  }
  return n;
}

const good = [
  query([{ name: '_brainstem._tcp.local', type: 'PTR' }]),
  query([{ name: 'brainstem-a0000010.local', type: 'ANY' }, { name: 'brainstem-a0000010._http._tcp.local', type: 'SRV' }],
    [{ type: 'PTR', name: '_brainstem._tcp.local', ttl: 4500, data: 'brainstem-a0000010._brainstem._tcp.local' }]),
  packet.encode({ type: 'response', flags: 0x8400, answers: [{ type: 'A', name: 'brainstem-a0000010.local', ttl: 120, data: '10.1.1.1' }],
    additionals: [{ type: 'TXT', name: 'x._http._tcp.local', ttl: 120, data: ['a=b'] }] }),
];

/** A header with counts chosen by the fuzzer followed by names built from labels and pointers. */
const pointerSoup = fc.record({
  counts: fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 4, maxLength: 4 }),
  flags: fc.integer({ min: 0, max: 0xffff }),
  parts: fc.array(fc.oneof(
    fc.integer({ min: 0, max: 0x3fff }).map((to) => [0xc0 | (to >> 8), to & 0xff]),
    fc.integer({ min: 0, max: 70 }).map((n) => [n, ...new Array(Math.min(n, 5)).fill(97)]),
    fc.constant([0, 0, 1, 0, 1]),
    fc.uint8Array({ maxLength: 12 }).map((a) => [...a]),
  ), { maxLength: 40 }),
}).map(({ counts, flags, parts }) => Uint8Array.from([0, 0, flags >> 8, flags & 255, ...counts.flatMap((c) => [c >> 8, c & 255]), ...parts.flat()]));

/** A good message with bytes changed, cut, or repeated. */
const mutated = fc.record({
  base: fc.integer({ min: 0, max: good.length - 1 }),
  edits: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }),
  cut: fc.nat(),
}).map(({ base, edits, cut }) => {
  const b = Uint8Array.from(good[base]);
  for (const [at, v] of edits) b[at % b.length] = v;
  return b.subarray(0, Math.max(0, b.length - (cut % 8)));
});

const anyPacket = fc.oneof(fc.uint8Array({ maxLength: 600 }), pointerSoup, mutated);

describe('DNS fuzzing (fast-check)', function () {
  this.timeout(0);

  it('the reader never throws and always ends on random bytes, pointer soups and mutated messages', () => {
    fc.assert(fc.property(anyPacket, (bytes) => {
      const n = walk(bytes);
      assert.ok(n <= bytes.length);
    }), { numRuns: RUNS * 3 });
  });

  it('every name the reader accepts ends inside the packet within 255 bytes', () => {
    fc.assert(fc.property(pointerSoup, fc.nat(), (bytes, at) => {
      const start = 12 + (at % Math.max(1, bytes.length - 12));
      const end = skipName(bytes, bytes.length, start);
      assert.ok(end === -1 || (end > start && end <= bytes.length));
    }), { numRuns: RUNS * 3 });
  });

  it('the responder never throws on any packet from any port, and still answers a good query afterwards', () => {
    const rig = new Rig(2);
    rig.announce(2);
    let asked = 0;
    fc.assert(fc.property(fc.array(anyPacket, { minLength: 1, maxLength: 5 }), fc.boolean(), (packets, legacy) => {
      for (const p of packets) rig.receive(p, legacy ? 40000 : 5353);
      rig.advance(1500);
      const from = rig.sent.length;
      rig.receive(query([{ name: 'brainstem-a0000011.local', type: 'A' }]));
      rig.advance(1200);
      asked++;
      const answered = rig.since(from).some((s) => (s.decoded.answers ?? []).some((a) => a.name === 'brainstem-a0000011.local'));
      assert.ok(answered, 'the good query was answered');
      for (const s of rig.sent) assert.ok(s.bytes.length <= 1460);
    }), { numRuns: RUNS });
    assert.ok(asked > 0);
  });
});
