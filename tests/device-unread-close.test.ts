// Closing a connection whose peer sent bytes the server never reads, on the Pico W's lwIP socket
// (tests/fakes/tcp.ts with net.lwip): the SDK's close there is tcp_close then tcp_abort
// (modules/network/socket/lwip/modLwipSafe.h:32), and lwIP's tcp_close resets and frees a connection
// whose received bytes were not all taken (lwIP src/core/tcp.c:352-371), so the tcp_abort frees its pcb a
// second time (tcp.c:621). The server reads such bytes away before it closes (src/device/unread.ts):
// a refused body (413) and bytes after a last request leave no pcb freed twice, and the module serves on.

import { strict as assert } from 'node:assert';
import { FULL_BOARD, freshWorld, get, net, replies } from './fakes/world';
import { setConfig } from './fakes/config';
import { LwipHeap, PICO_SND_BUF } from './fakes/lwip-heap';
import { type FakeClient } from './fakes/net';
import { BODY_MAX } from '../src/http/http-limits';

const MAIN = require.resolve('../src/device/main');
const PICO_PACING = { writeMax: 1460, sendingMax: 2 }; // manifest.json, platform pico/pico_w

function boot(): LwipHeap {
  freshWorld();
  setConfig({ http: { port: 8080, connections: 4 }, serial: '0x1234ABCD', board: { ...FULL_BOARD, ...PICO_PACING } });
  delete require.cache[MAIN];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh evaluation of the entry, as a boot does
  require(MAIN);
  net.run();
  const heap = new LwipHeap();
  net.lwip = heap;
  return heap;
}

/** A fresh client's GET of the serial number is answered 200 (the module serves on). */
function servesOn(): void {
  const c = net.connect(8080, PICO_SND_BUF);
  c.send(get('system/0/serialnumber'));
  net.advance(10000);
  const r = replies(c);
  assert.equal(r.length, 1, 'no answer after the close');
  assert.match(r[0].head, /^HTTP\/1\.1 200 OK/);
}

function send(text: string): FakeClient {
  const c = net.connect(8080, PICO_SND_BUF);
  c.send(text);
  return c;
}

describe('closing with the peer\'s bytes unread (Pico W lwIP: tcp_close then tcp_abort)', () => {
  after(() => { delete require.cache[MAIN]; net.reset(); });

  it('refuses a body over the limit (413) with its bytes waiting, closes without freeing the pcb twice, serves on', () => {
    const heap = boot();
    const body = 'x'.repeat(3000); // arrives with the head; the server never reads it
    const c = send(`PUT /api/v1/device/system/0/name HTTP/1.1\r\nHost: 192.168.1.50\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${BODY_MAX + 1}\r\n\r\n${body}`);
    net.advance(20000);
    assert.match(replies(c)[0]?.head ?? c.received, /^HTTP\/1\.1 413 /);
    assert.ok(c.closedByServer, 'the server closed the connection');
    assert.equal(heap.pcbsFreedTwice, 0, 'lwIP freed a pcb twice');
    servesOn();
    assert.equal(heap.pcbsFreedTwice, 0);
  });

  it('answers a last request (Connection: close) sent with more bytes behind it, closes once, serves on', () => {
    const heap = boot();
    const c = send(get('system/0/serialnumber', 'Connection: close\r\n') + 'GET /more HTTP/1.1\r\nHost: x\r\n\r\n' + 'y'.repeat(1500));
    net.advance(20000);
    assert.match(replies(c)[0]?.head ?? c.received, /^HTTP\/1\.1 200 OK/);
    assert.ok(c.closedByServer);
    assert.equal(heap.pcbsFreedTwice, 0, 'lwIP freed a pcb twice');
    servesOn();
  });

  it('closes once a connection whose peer sent a request, more bytes and its FIN at once', () => {
    const heap = boot();
    // lwIP marks the socket not ready on the FIN (modules/io/socket/lwip/tcp.c), so the answer cannot be
    // written: the connection ends, with the bytes after the request unread.
    const c = send(get('system/0/serialnumber', 'Connection: close\r\n') + 'y'.repeat(1500));
    c.halfClose();
    net.advance(20000);
    assert.ok(c.closedByServer);
    assert.equal(heap.pcbsFreedTwice, 0, 'lwIP freed a pcb twice');
    servesOn();
  });
});
