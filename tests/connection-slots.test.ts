// The connection-slot policy at the cap (docs/api.md §HTTP limits) on its own with stand-in holders, and
// the slot state and deadlines a Connection reports, on a fake clock.
import { strict as assert } from 'node:assert';
import {
  ConnectionSlots, PARTIAL_PROTECT_MS, SLOT_ANSWERING, SLOT_IDLE, SLOT_PARTIAL, type SlotHolder,
} from '../src/http/connection-slots';
import { Connection } from '../src/http/connection';
import type { HttpRequest, HttpResponse } from '../src/http/request';
import { rawExchange, simApi, splitResponses } from './helpers';

class Holder implements SlotHolder {
  closed = false;
  evicted = false;
  constructor(readonly name: string, public state: number, public since: number) {}
  slotState(): number { return this.state; }
  slotSince(): number { return this.since; }
  evict(): void { this.evicted = true; this.closed = true; }
}

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const GET = 'GET /api/v1/device/system/0/serialnumber HTTP/1.1\r\nHost: localhost\r\n\r\n';

describe('connection slots policy', () => {
  it('admits freely below the cap', () => {
    const slots = new ConnectionSlots<Holder>(2);
    assert.equal(slots.admit(new Holder('a', SLOT_PARTIAL, 0), 0), true);
    assert.equal(slots.admit(new Holder('b', SLOT_PARTIAL, 0), 0), true);
    assert.equal(slots.size, 2);
  });

  it('at the cap takes the slot of the connection idle longest, before any partial request', () => {
    const slots = new ConnectionSlots<Holder>(3);
    const old = new Holder('old partial', SLOT_PARTIAL, 0);
    const idle1 = new Holder('idle since 5000', SLOT_IDLE, 5000);
    const idle2 = new Holder('idle since 3000', SLOT_IDLE, 3000);
    for (const h of [old, idle1, idle2]) slots.admit(h, 0);
    assert.equal(slots.admit(new Holder('new', SLOT_PARTIAL, 9000), 9000), true);
    assert.deepEqual([old.evicted, idle1.evicted, idle2.evicted], [false, false, true]);
    assert.equal(slots.size, 3);
  });

  it('else the oldest partial request older than 2 s; younger ones and answering ones are kept', () => {
    const slots = new ConnectionSlots<Holder>(3);
    const answering = new Holder('answering', SLOT_ANSWERING, 0);
    const older = new Holder('partial since 1000', SLOT_PARTIAL, 1000);
    const old = new Holder('partial since 2000', SLOT_PARTIAL, 2000);
    for (const h of [answering, older, old]) slots.admit(h, 0);
    const now = 2000 + PARTIAL_PROTECT_MS;
    assert.equal(slots.admit(new Holder('n1', SLOT_PARTIAL, now), now), true);
    assert.deepEqual([answering.evicted, older.evicted, old.evicted], [false, true, false]);
    assert.equal(slots.admit(new Holder('n2', SLOT_PARTIAL, now), now), true);
    assert.equal(old.evicted, true);
    // Now: answering + two partials 0 ms old.
    assert.equal(slots.admit(new Holder('n3', SLOT_PARTIAL, now), now + PARTIAL_PROTECT_MS - 1), false);
    assert.equal(answering.evicted, false);
  });

  it('closed connections hold no slot', () => {
    const slots = new ConnectionSlots<Holder>(1);
    const a = new Holder('a', SLOT_ANSWERING, 0);
    slots.admit(a, 0);
    assert.equal(slots.admit(new Holder('b', SLOT_PARTIAL, 0), 0), false);
    a.closed = true;
    assert.equal(slots.size, 0);
    assert.equal(slots.admit(new Holder('c', SLOT_PARTIAL, 0), 0), true);
    assert.equal(a.evicted, false);
  });
});

describe('connection slot state and deadlines', () => {
  it('is partial from its accept until a first request is answered, then idle since the answer', () => {
    let now = 1000;
    const a = rawExchange(simApi(), [], () => now);
    assert.deepEqual([a.connection.slotState(), a.connection.slotSince()], [SLOT_PARTIAL, 1000]);
    now = 1500;
    a.connection.receive(enc('GET /api/v1/device/system/0/serialnumber HTTP/1.1\r\n'));
    assert.deepEqual([a.connection.slotState(), a.connection.slotSince()], [SLOT_PARTIAL, 1000]);
    now = 1700;
    a.connection.receive(enc('Host: localhost\r\n\r\n'));
    assert.deepEqual([a.connection.slotState(), a.connection.slotSince()], [SLOT_IDLE, 1700]);
    now = 5000;
    a.connection.receive(enc('GET /'));
    assert.deepEqual([a.connection.slotState(), a.connection.slotSince()], [SLOT_PARTIAL, 5000]);
  });

  it('is answering while its handler runs', () => {
    const api = simApi();
    const seen: number[] = [];
    let connection: Connection | null = null;
    const handler = {
      handle(req: HttpRequest, res: HttpResponse): void { seen.push(connection!.slotState()); api.handle(req, res); },
      fail: api.fail.bind(api),
      afterResponse: api.afterResponse.bind(api),
    };
    connection = new Connection(handler, { write: () => undefined, close: () => undefined });
    connection.receive(enc(GET));
    assert.deepEqual(seen, [SLOT_ANSWERING]);
    assert.equal(connection.slotState(), SLOT_IDLE);
  });

  it('evicted while partial: 408 aErrTimeout and close; while idle: closed without a word', () => {
    const a = rawExchange(simApi(), ['GET / HTTP/1.1\r\n']);
    a.connection.evict();
    const r = splitResponses(a.out);
    assert.deepEqual([r[0].status, JSON.parse(r[0].body).response.error, a.closed], [408, 'aErrTimeout', true]);
    const b = rawExchange(simApi(), [GET]);
    const before = b.out;
    b.connection.evict();
    assert.deepEqual([b.out, b.closed], [before, true]);
  });

  it('answers 408 when the whole body has not come within 10 s of the head, however it trickles', () => {
    let now = 0;
    const a = rawExchange(simApi(), ['PUT /api/v1/device/system/0/hbinterval HTTP/1.1\r\nHost: localhost\r\nContent-Length: 12\r\n\r\n{'], () => now);
    for (let t = 1; t <= 9; t++) {
      now = t * 1000 + 999;
      a.connection.receive(enc(' '));
      assert.equal(a.connection.checkTimeout(), false, `at ${now}`);
    }
    now = 10000;
    assert.equal(a.connection.checkTimeout(), true);
    const r = splitResponses(a.out);
    assert.deepEqual([r[0].status, JSON.parse(r[0].body).response.error, a.closed], [408, 'aErrTimeout', true]);
  });

  it('counts the head deadline from the first byte, the slot age from the accept', () => {
    let now = 0;
    const a = rawExchange(simApi(), [], () => now);
    now = 5000;
    a.connection.receive(enc('GET / HTTP/1.1\r\n'));
    assert.deepEqual([a.connection.slotState(), a.connection.slotSince()], [SLOT_PARTIAL, 0]);
    now = 14999;
    assert.equal(a.connection.checkTimeout(), false);
    now = 15000;
    assert.equal(a.connection.checkTimeout(), true);
    assert.equal(splitResponses(a.out)[0].status, 408);
  });

  it('refused at the cap: 503 aErrResource with Retry-After: 1, then closed', () => {
    const a = rawExchange(simApi(), []);
    a.connection.refuse(503, 'server busy', 1);
    const r = splitResponses(a.out);
    assert.equal(r[0].status, 503);
    assert.match(r[0].head, /\r\nRetry-After: 1\r\n/);
    assert.equal(JSON.parse(r[0].body).response.error, 'aErrResource');
    assert.equal(a.closed, true);
  });
});

describe('connection slots with in-memory transports at a module-sized cap of 4', () => {
  // How the device server uses the policy: one ConnectionSlots, admit() at accept on the monotonic
  // clock, refuse(503, …, 1) when it says no, checkTimeout() on the once-a-second timer.
  const HEADS: Record<string, string> = {
    slowloris: 'G',
    'slow-body': 'PUT /api/v1/device/system/0/hbinterval HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n{',
    idle: GET,
  };
  for (const kind of Object.keys(HEADS)) {
    it(`${kind}: 48 attackers at cap 4, honest requests get in within 2 s`, () => {
      let now = 0;
      const api = simApi();
      const slots = new ConnectionSlots<Connection>(4);
      const accept = (): { c: Connection; out: () => string; closed: () => boolean } => {
        let out = '';
        let closed = false;
        const c = new Connection(api, { write: (b) => { out += Buffer.from(b).toString('latin1'); }, close: () => { closed = true; } }, { now: () => now });
        if (!slots.admit(c, now)) c.refuse(503, 'server busy', 1);
        return { c, out: () => out, closed: () => closed };
      };
      const attackers = Array.from({ length: 48 }, () => accept());
      for (const a of attackers) if (!a.closed()) a.c.receive(enc(HEADS[kind]));
      assert.equal(slots.size, 4);
      let worstWait = 0;
      for (let round = 0; round < 20; round++) {
        now += 500;
        for (const c of slots.list()) c.checkTimeout();
        const firstTry = now;
        for (let tries = 0; ; tries++) {
          assert.ok(tries < 5, `round ${round}: still refused`);
          const h = accept();
          if (!h.closed()) h.c.receive(enc(GET));
          const status = Number(h.out().slice(9, 12));
          if (status === 200) break;
          assert.match(h.out(), /^HTTP\/1\.1 503 [^]*\r\nRetry-After: 1\r\n/);
          now += 1000;
        }
        worstWait = Math.max(worstWait, now - firstTry);
      }
      assert.ok(worstWait <= 2000, `waited ${worstWait} ms`);
    });
  }
});
