// How the device server takes newcomers at its connection cap (src/device/server.ts) on the fake
// network: one 503 on its way at a time, the other newcomers waiting as bare sockets until it has gone
// or a slot frees, each then admitted or refused in order of arrival, and never more than WAITING_MAX
// waiting (the oldest is refused at once when one more comes).

import { strict as assert } from 'node:assert';
import { freshWorld, get, net, replies, serve } from './fakes/world';
import type { FakeClient } from './fakes/net';
import { WAITING_MAX } from '../src/device/server';
import { LINGER_MS } from '../src/device/transport';

/** Four clients, each holding a connection slot with a request head still arriving (protected for 2 s). */
function fillSlots(): FakeClient[] {
  const busy = [1, 2, 3, 4].map(() => net.connect(8080));
  for (const c of busy) c.send('GET /api/v1/device/system/0/serialnumber HTTP/1.1\r\n');
  net.run();
  return busy;
}

/** A newcomer whose peer takes nothing (a zero window): its 503 cannot leave until it lingers out. */
function stuckNewcomer(): FakeClient {
  const c = net.connect(8080, 0);
  net.run();
  return c;
}

describe('device server: newcomers at the connection cap', () => {
  beforeEach(() => freshWorld());

  it('many newcomers at once while every slot is busy: each is answered 503 once and closed', () => {
    serve(8080, 4);
    const busy = fillSlots();
    const newcomers = Array.from({ length: 6 }, () => net.connect(8080));
    net.run();
    for (const c of newcomers) {
      const r = replies(c);
      assert.equal(r.length, 1);
      assert.equal(r[0].status, 503);
      assert.equal(r[0].json.response.error, 'aErrResource');
      assert.match(r[0].head, /retry-after: 1/i);
      assert.equal(c.closedByServer, true);
    }
    for (const c of busy) assert.equal(c.closedByServer, false);
  });

  it('while one 503 cannot leave, the next newcomer waits, and takes the slot a client gives back', () => {
    serve(8080, 4);
    const busy = fillSlots();
    const stuck = stuckNewcomer();
    const next = net.connect(8080);
    next.send(get('system/0/serialnumber'));
    net.run();
    assert.equal(next.received, '', 'no answer yet: it waits behind the 503 on its way');
    assert.equal(next.closedByServer, false);
    busy[2].close();
    net.run();
    const r = replies(next);
    assert.equal(r.length, 1);
    assert.equal(r[0].status, 200, 'admitted to the slot that was given back, not refused');
    assert.equal(next.closedByServer, false);
    assert.equal(stuck.closedByServer, false, 'the 503 still waits for its peer');
    net.advance(LINGER_MS + 100);
    assert.equal(stuck.closedByServer, true, 'the stuck refusal closes after LINGER_MS');
  });

  it('a waiting newcomer takes the slot of a partial request once it is older than 2 s', () => {
    serve(8080, 4);
    const busy = fillSlots();
    stuckNewcomer();
    const next = net.connect(8080);
    next.send(get('system/0/serialnumber'));
    net.run();
    assert.equal(next.received, '');
    net.advance(2100); // the server's tick finds the oldest partial request unprotected
    const evicted = replies(busy[0]);
    assert.equal(evicted.length, 1);
    assert.equal(evicted[0].status, 408);
    assert.equal(replies(next)[0].status, 200);
  });

  it(`beyond ${WAITING_MAX} waiting, the oldest waiting newcomer is refused at once`, () => {
    serve(8080, 4);
    fillSlots();
    stuckNewcomer();
    const waiting = Array.from({ length: WAITING_MAX }, () => net.connect(8080));
    net.run();
    for (const c of waiting) assert.equal(c.received, '');
    const more = net.connect(8080);
    net.run();
    assert.equal(replies(waiting[0])[0]?.status, 503, 'the oldest is refused at once: the waiting list was full');
    for (const c of [...waiting.slice(1), more]) assert.equal(c.received, '', 'the others still wait');
  });
});
