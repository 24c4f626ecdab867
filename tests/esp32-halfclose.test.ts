// Clients that half-close after their request (shutdown(SHUT_WR), `curl` with some proxies, scripts
// that send and then close their side): the device server answers them where the socket still takes
// writes after the peer's FIN, and otherwise closes the connection without an exception escaping. The
// fake socket plays both: 'lwip' as the SDK's lwIP socket (not ready from the FIN on, before the
// request is read: modules/io/socket/lwip/tcp.c), 'writable' as a stack that lets the answer out.

import { strict as assert } from 'node:assert';
import { freshWorld, get, net, replies, serve } from './fakes/world';

describe('device server: half-closed clients', () => {
  beforeEach(() => freshWorld());

  it('answers a half-closed client where the socket still takes writes, however small its window', () => {
    serve(8080);
    const c = net.connect(8080, 64);
    c.conn.finMode = 'writable';
    c.send(get('system/0/serialnumber'));
    c.halfClose();
    assert.doesNotThrow(() => net.run());
    const r = replies(c);
    assert.equal(r.length, 1, `received ${JSON.stringify(c.received)}`);
    assert.equal(r[0].status, 200);
    assert.equal(c.closedByServer, true);
  });

  it('closes, with nothing thrown, where the socket takes no writes after the FIN (lwIP)', () => {
    const s = serve(8080);
    const c = net.connect(8080);
    c.send(get('system/0/serialnumber'));
    c.halfClose();
    assert.doesNotThrow(() => net.run());
    assert.equal(c.closedByServer, true);
    assert.equal(net.pendingTimers(), 1, 'only the server\'s own timer is left: no socket lingers');
    // The slot is free and the server serves on.
    const next = net.connect(8080);
    next.send(get('system/0/serialnumber'));
    net.run();
    assert.equal(replies(next)[0]?.status, 200);
    assert.ok(s.server);
  });

  it('a client that half-closes before the server has adopted its socket is handled the same way', () => {
    serve(8080);
    const c = net.connect(8080);
    c.send(get('system/0/serialnumber'));
    c.halfClose(); // FIN queued behind the accept
    assert.doesNotThrow(() => net.run());
    assert.equal(c.closedByServer, true);
  });
});
