// src/device/server.ts and transport.ts on the fake ECMA-419 listener and TCP socket (tests/fakes):
// the connection cap, back-pressure from a peer that does not read, the linger of a closing socket,
// and the reset that waits for its answer to leave.

import { strict as assert } from 'node:assert';
import { freshWorld, get, net, platform, replies, serve } from './fakes/world';
import { LINGER_MS, QUEUE_MAX, READ_CHUNK } from '../src/device/transport';
import { HEADER_TIMEOUT_MS, IDLE_TIMEOUT_MS } from '../src/http/http-limits';
import { TICK_MS } from '../src/http/server-core';

describe('device server on the fake network', () => {
  beforeEach(() => freshWorld());

  it('serves 4 connections at once; a fifth gets the slot of the longest idle, or 503 while all are busy', () => {
    serve(8080, 4);
    const clients = [1, 2, 3, 4].map(() => net.connect(8080));
    for (const c of clients) c.send(get('system/0/serialnumber'));
    net.run();
    for (const c of clients) {
      assert.equal(replies(c)[0].status, 200);
      assert.equal(c.closedByServer, false); // keep-alive
    }
    // All four idle between requests: a fifth takes the slot of the first (the longest idle).
    const fifth = net.connect(8080);
    fifth.send(get('system/0/serialnumber'));
    net.run();
    assert.equal(replies(fifth)[0].status, 200);
    assert.equal(clients[0].closedByServer, true);
    // Four connections each receiving a request (younger than 2 s): a sixth is answered 503 and closed.
    for (const c of [clients[1], clients[2], clients[3], fifth]) c.send('GET /api/v1/device/system/0/serialnumber HTTP/1.1\r\n');
    net.run();
    const sixth = net.connect(8080);
    net.run();
    const r = replies(sixth);
    assert.equal(r.length, 1);
    assert.equal(r[0].status, 503);
    assert.equal(r[0].json.response.error, 'aErrResource');
    assert.equal(sixth.closedByServer, true);
    // One of the four leaves: a new one is served.
    clients[1].close();
    net.run();
    const next = net.connect(8080);
    next.send(get('system/0/serialnumber'));
    net.run();
    assert.equal(replies(next)[0].status, 200);
  });

  it('stops reading from a peer that does not read its answers, and catches up when it does', () => {
    serve();
    const window = 512;
    const c = net.connect(8080, window);
    c.setReading(false);
    const request = get('system/0/serialnumber');
    const total = 300;
    let stream = '';
    for (let i = 0; i < total; i++) stream += request;
    c.send(stream);
    net.run();
    // Reading paused: most of the requests are still in the network, unread by the server.
    const consumed = stream.length - c.conn.up.length;
    assert.ok(c.conn.up.length > 0, 'the server read everything');
    // What the server holds is bounded: the answers it made less what the network took.
    const probe = net.connect(8080);
    probe.send(request);
    net.run();
    const answer = replies(probe)[0];
    const answerBytes = probe.received.length;
    assert.equal(answer.status, 200);
    const held = Math.floor(consumed / request.length) * answerBytes - window;
    assert.ok(held <= QUEUE_MAX + Math.ceil(READ_CHUNK / request.length) * answerBytes, `holds ${held} bytes`);
    // The peer reads again: every request is answered, in order.
    c.setReading(true);
    net.run();
    const all = replies(c);
    assert.equal(all.length, total);
    assert.ok(all.every((r) => r.status === 200 && r.json.response.value === 0x1234abcd));
    assert.equal(c.conn.up.length, 0);
  });

  it('a closing socket waits for its peer at most LINGER_MS, then closes', () => {
    serve();
    const c = net.connect(8080, 64); // the answer does not fit: the rest waits in the server
    c.setReading(false);
    c.send(get('system/0/serialnumber', 'Connection: close\r\n'));
    net.run();
    assert.equal(c.closedByServer, false);
    net.advance(LINGER_MS - 100);
    assert.equal(c.closedByServer, false, 'closed before the linger ran out');
    net.advance(200);
    assert.equal(c.closedByServer, true, 'still open after the linger');
    c.setReading(true);
    net.run();
    assert.equal(replies(c).length, 0); // cut off: the peer never took the whole answer
  });

  it('a closing socket closes as soon as its peer has taken the last answer', () => {
    serve();
    const c = net.connect(8080, 64);
    c.setReading(false);
    c.send(get('system/0/serialnumber', 'Connection: close\r\n'));
    net.run();
    net.advance(1000);
    assert.equal(c.closedByServer, false);
    c.setReading(true);
    net.run();
    assert.equal(c.closedByServer, true);
    assert.equal(replies(c)[0].status, 200);
    assert.equal(net.pendingTimers(), 1); // only the server's timeout tick: the linger timer is gone
  });

  it('sleeps while no client is connected: its tick is unscheduled, and a client wakes it with its deadlines', () => {
    serve();
    net.advance(TICK_MS);
    assert.equal(net.pendingTimers(), 0, 'an idle server keeps no timer scheduled');
    net.advance(60_000);
    assert.equal(net.pendingTimers(), 0);
    // A client that sends half a request and stops: the tick wakes and answers it 408 in time.
    const slow = net.connect(8080);
    slow.send('GET /api/v1/device/system/0/serialnumber HTTP/1.1\r\n');
    net.run();
    assert.equal(net.pendingTimers(), 1, 'a connection wakes the tick');
    net.advance(HEADER_TIMEOUT_MS + 2 * TICK_MS);
    assert.equal(replies(slow)[0].status, 408);
    assert.equal(slow.closedByServer, true);
    net.advance(TICK_MS);
    assert.equal(net.pendingTimers(), 0, 'asleep again once the connection has gone');
    // A keep-alive client is closed after the idle time-out, and the server sleeps again.
    const idle = net.connect(8080);
    idle.send(get('system/0/serialnumber'));
    net.run();
    assert.equal(replies(idle)[0].status, 200);
    net.advance(IDLE_TIMEOUT_MS + 2 * TICK_MS);
    assert.equal(idle.closedByServer, true, 'the idle connection was closed');
    net.advance(TICK_MS);
    assert.equal(net.pendingTimers(), 0);
  });

  it('resets only after the answer to system/reset has left', () => {
    serve();
    const c = net.connect(8080, 64);
    c.setReading(false);
    let receivedAtRestart = '';
    platform.chipRestarts = true;
    platform.onRestart = () => { receivedAtRestart = c.received; };
    c.send(get('system/0/reset'));
    net.run();
    net.advance(1000);
    assert.deepEqual(platform.restarts, [], 'restarted while its answer was still in the module');
    c.setReading(true);
    net.run();
    const tookAt = net.now;
    net.advance(500);
    assert.equal(platform.restarts.length, 1);
    assert.ok(platform.restarts[0] >= tookAt && platform.restarts[0] <= tookAt + 200, `restart at +${platform.restarts[0] - tookAt} ms`);
    assert.equal(replies({ received: receivedAtRestart } as never)[0].status, 200);
  });

  it('a peer that never takes the reset answer holds the reset off for a bounded time only', () => {
    serve();
    const c = net.connect(8080, 64);
    c.setReading(false);
    platform.chipRestarts = true;
    c.send(get('system/0/reset'));
    net.run();
    const askedAt = net.now;
    net.advance(10000);
    assert.equal(platform.restarts.length, 1);
    assert.ok(platform.restarts[0] - askedAt <= 2200, `restart after ${platform.restarts[0] - askedAt} ms`);
  });

  it('closes an idle keep-alive connection after the idle timeout', () => {
    serve();
    const c = net.connect(8080);
    c.send(get('system/0/serialnumber'));
    net.run();
    net.advance(29000);
    assert.equal(c.closedByServer, false);
    net.advance(3000);
    assert.equal(c.closedByServer, true);
  });

  it('answers 408 to a client that sends its head a byte every 2 s (the 10 s head limit)', () => {
    serve();
    const c = net.connect(8080);
    const head = get('system/0/serialnumber');
    let sent = 0;
    while (!c.closedByServer && sent < head.length) {
      c.send(head[sent++]);
      net.advance(2000);
    }
    const r = replies(c);
    assert.equal(r.length, 1);
    assert.equal(r[0].status, 408);
    assert.ok(sent >= 5 && sent <= 7, `closed after ${sent} bytes`);
  });
});
