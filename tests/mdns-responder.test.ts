// The mDNS / DNS-SD responder (src/dns/mdns-responder.ts) on a virtual clock, every message it sends
// read by dns-packet: probing many names in one message, renaming on conflict, announcing, answers
// with their additional records split within 1,460 bytes, known-answer suppression, the truncated-query
// wait, the once-a-second rule, legacy unicast, goodbye, and packets that must be dropped.

import { strict as assert } from 'node:assert';
import packet from 'dns-packet';
import { ptrTargets, query, records, Rig, SELF_POINTER } from './mdns-helpers';

const TXT = ['serial=0xA0000010', 'model=4', 'fw=1.2.3', 'api=/api/v1', 'auth=none'];
const txtOf = (a: any): string[] => (a.data as Buffer[]).map((b) => b.toString());

describe('mDNS responder', () => {
  it('probes every name in one message, three times 250 ms apart, then announces twice with the cache-flush bit on unique records', () => {
    const rig = new Rig(3);
    for (let i = 0; i < 3; i++) rig.responder.set(i, { hostname: `bench-${i}`, port: 8080, txt: { serial: '0xA0000010', model: '4', fw: '1.2.3', api: '/api/v1', auth: 'none' } });
    rig.advance(3000);
    const probes = rig.sent.filter((s) => s.decoded.type === 'query');
    assert.equal(probes.length, 3, 'one message per round for three modules');
    assert.equal(probes[0].decoded.questions!.length, 9);
    assert.ok(probes[0].decoded.questions!.every((q) => (q.type as string) === 'ANY'));
    assert.equal(probes[1].at - probes[0].at, 250);
    assert.equal(probes[0].decoded.authorities!.length, 3 * 5, 'A, SRV and TXT twice proposed per module');
    const announcements = rig.sent.filter((s) => s.decoded.type === 'response');
    assert.equal(announcements.length, 2);
    assert.equal(announcements[1].at - announcements[0].at, 1000);
    const rr = records([announcements[0]]);
    const txt = rr.find((a) => a.type === 'TXT' && a.name === 'bench-0._brainstem._tcp.local')!;
    assert.deepEqual(txtOf(txt), TXT);
    assert.equal((txt as any).flush, true);
    assert.equal((rr.find((a) => a.type === 'A' && a.name === 'bench-1.local') as any).data, '192.168.1.20');
    assert.deepEqual((rr.find((a) => a.type === 'SRV' && a.name === 'bench-2._http._tcp.local') as any).data, { priority: 0, weight: 0, port: 8080, target: 'bench-2.local' });
    const ptr = rr.find((a) => a.type === 'PTR' && a.name === '_http._tcp.local')!;
    assert.equal((ptr as any).flush, false);
    assert.ok(rr.some((a) => a.name === '_services._dns-sd._udp.local' && (a as any).data === '_brainstem._tcp.local'));
    assert.deepEqual(rig.names, ['bench-0', 'bench-1', 'bench-2']);
  });

  it('takes name-2, then name-3, when someone answers for the name being probed', () => {
    const rig = new Rig(1);
    rig.responder.set(0, { hostname: 'bench', port: 80, txt: {} });
    rig.advance(300);
    const answer = (name: string): Buffer => packet.encode({ type: 'response', flags: 0x8400, answers: [{ type: 'A', name, ttl: 120, data: '10.0.0.9' }] });
    rig.receive(answer('bench.local'));
    rig.advance(300);
    rig.receive(answer('BENCH-2.local'));
    rig.advance(3000);
    assert.deepEqual(rig.names, ['bench-3']);
    assert.equal(rig.responder.conflicts, 2);
    const last = rig.sent.at(-1)!;
    assert.ok(records([last]).some((a) => a.name === 'bench-3.local' && a.type === 'A'));
  });

  it('answers a PTR query for 50 modules with every instance, in messages of at most 1,460 bytes that carry their SRV, TXT and A', () => {
    const rig = new Rig(50);
    rig.announce(50);
    const from = rig.sent.length;
    rig.receive(query([{ name: '_brainstem._tcp.local', type: 'PTR' }]));
    rig.advance(200);
    const answers = rig.since(from);
    assert.ok(answers.length > 1);
    for (const s of answers) assert.ok(s.bytes.length <= 1460, `${s.bytes.length} bytes`);
    assert.equal(new Set(ptrTargets(answers)).size, 50);
    for (const s of answers) {
      for (const p of ptrTargets([s])) {
        const extra = s.decoded.additionals!;
        assert.ok(extra.some((a) => a.type === 'SRV' && a.name === p), `SRV of ${p} in its message`);
        assert.ok(extra.some((a) => a.type === 'TXT' && a.name === p), `TXT of ${p} in its message`);
      }
    }
  });

  it('leaves out answers the query already knows (§7.1), and waits for the rest of a truncated query (§7.2)', () => {
    const rig = new Rig(4);
    rig.announce(4);
    const known = (i: number): any => ({ type: 'PTR', name: '_brainstem._tcp.local', ttl: 4500, data: `brainstem-a00000${(i + 16).toString(16)}._brainstem._tcp.local` });
    let from = rig.sent.length;
    rig.receive(query([{ name: '_brainstem._tcp.local', type: 'PTR' }], [known(0), known(1)]));
    rig.advance(200);
    assert.deepEqual(ptrTargets(rig.since(from)).sort(), ['brainstem-a0000012._brainstem._tcp.local', 'brainstem-a0000013._brainstem._tcp.local']);
    // A known answer with less than half the TTL left does not count.
    rig.advance(2000);
    from = rig.sent.length;
    rig.receive(query([{ name: '_brainstem._tcp.local', type: 'PTR' }], [{ ...known(0), ttl: 100 }]));
    rig.advance(200);
    assert.equal(ptrTargets(rig.since(from)).length, 4);
    // TC: no answer before 400 ms; the known answers of the next packet count.
    rig.advance(2000);
    from = rig.sent.length;
    rig.receive(query([{ name: '_brainstem._tcp.local', type: 'PTR' }], [known(0)], 0x0200));
    rig.advance(300);
    assert.equal(rig.since(from).length, 0);
    rig.receive(query([], [known(1), known(2)]));
    rig.advance(300);
    assert.deepEqual(ptrTargets(rig.since(from)), ['brainstem-a0000013._brainstem._tcp.local']);
  });

  it('multicasts a record at most once a second: a query right after an answer is answered when the second is up', () => {
    const rig = new Rig(1);
    rig.announce(1);
    rig.advance(5000);
    const q = query([{ name: 'brainstem-a0000010.local', type: 'A' }]);
    const from = rig.sent.length;
    rig.receive(q);
    rig.advance(150);
    const first = rig.since(from);
    assert.equal(first.length, 1);
    for (let i = 0; i < 20; i++) rig.receive(q);
    rig.advance(200);
    assert.equal(rig.since(from).length, 1, 'nothing within the second');
    rig.advance(1000);
    const all = rig.since(from);
    assert.equal(all.length, 2, 'twenty queries, one more answer');
    assert.ok(all[1].at - all[0].at >= 1000);
  });

  it('answers A, SRV, TXT and ANY questions with the right records, and nothing for names it does not own', () => {
    const rig = new Rig(1);
    rig.announce(1);
    const ask = (name: string, type: string): packet.Answer[] => {
      rig.advance(2000);
      const from = rig.sent.length;
      rig.receive(query([{ name, type }]));
      rig.advance(200);
      return rig.since(from).flatMap((s) => s.decoded.answers!);
    };
    const inst = 'brainstem-a0000010._http._tcp.local';
    assert.deepEqual(ask('brainstem-a0000010.local', 'A').map((a) => a.type), ['A']);
    assert.deepEqual(ask(inst, 'SRV').map((a) => a.type), ['SRV']);
    assert.deepEqual(txtOf(ask(inst, 'TXT')[0]), TXT);
    assert.deepEqual(ask(inst, 'ANY').map((a) => a.type).sort(), ['SRV', 'TXT']);
    assert.deepEqual(ask('_services._dns-sd._udp.local', 'PTR').map((a) => (a as any).data).sort(), ['_brainstem._tcp.local', '_http._tcp.local']);
    assert.deepEqual(ask('other.local', 'ANY'), []);
    assert.deepEqual(ask('brainstem-a0000010.local', 'AAAA'), []);
  });

  it('answers a legacy unicast query (source port not 5353) at once, by unicast, with its ID, its question and TTLs of 10 s', () => {
    const rig = new Rig(1);
    rig.announce(1);
    const from = rig.sent.length;
    const q = packet.encode({ type: 'query', id: 4242, questions: [{ name: 'brainstem-a0000010.local', type: 'A' }] });
    rig.receive(q, 40000, '192.168.1.77');
    const [s] = rig.since(from);
    assert.equal(s.address, '192.168.1.77');
    assert.equal(s.port, 40000);
    assert.equal(s.decoded.id, 4242);
    assert.equal(s.decoded.questions![0].name, 'brainstem-a0000010.local');
    assert.equal((s.decoded.answers![0] as any).ttl, 10);
  });

  it('says goodbye with TTL 0 for every record on close, and for one module when it is set anew', () => {
    const rig = new Rig(2);
    rig.announce(2);
    let from = rig.sent.length;
    rig.responder.set(1, { hostname: 'renamed', port: 8080, txt: {} });
    const bye = records(rig.since(from));
    assert.ok(bye.length >= 7 && bye.every((a: any) => a.ttl === 0 && (a.name + a.data).includes('brainstem-a0000011')), JSON.stringify(bye));
    rig.advance(3000);
    from = rig.sent.length;
    rig.responder.close();
    const all = records(rig.since(from));
    assert.ok(all.every((a: any) => a.ttl === 0));
    assert.ok(all.some((a) => a.name === 'renamed.local') && all.some((a) => a.name === 'brainstem-a0000010.local'));
    assert.ok(all.some((a) => a.name === '_services._dns-sd._udp.local'));
  });

  it('drops the 18-byte self-pointer, a packet that ends mid-record and one with a huge count, and answers the next query', () => {
    const rig = new Rig(1);
    rig.announce(1);
    const from = rig.sent.length;
    rig.receive(SELF_POINTER);
    const good = query([{ name: 'brainstem-a0000010.local', type: 'A' }], [{ type: 'A', name: 'x.local', ttl: 120, data: '1.2.3.4' }]);
    rig.receive(good.subarray(0, good.length - 3));
    const huge = Buffer.from(good);
    huge.writeUInt16BE(0xffff, 6);
    rig.receive(huge);
    assert.equal(rig.responder.dropped, 3);
    rig.advance(2000);
    rig.receive(query([{ name: 'brainstem-a0000010.local', type: 'A' }]));
    rig.advance(200);
    assert.equal(rig.since(from).length, 1);
  });
});
