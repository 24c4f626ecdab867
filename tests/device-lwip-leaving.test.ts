// Clients that leave in the middle of an answer, and a refused client that closes as its 503 arrives,
// through the Pico W's paced writes and small lwIP heap (tests/lwip-writes-helpers.ts): the SDK's socket
// reports no acknowledgement and takes no write after a peer's FIN, and reports the FIN only once every
// received byte is read (modules/io/socket/lwip/tcp.c, as tests/fakes/tcp.ts plays it).

import { strict as assert } from 'node:assert';
import { FULL_BOARD, get, net, replies } from './fakes/world';
import Resource from './fakes/resource';
import { LwipHeap, PICO_SND_BUF } from './fakes/lwip-heap';
import { MAIN, PICO_PACING, boot, fetchAll, withResources } from './lwip-writes-helpers';
import { OPENAPI_RESOURCE } from '../src/device/openapi';

describe('paced writes and clients that leave in the middle of an answer', () => {
  withResources();

  /**
   * Six clients, one after another, each asking for the OpenAPI document and leaving at its first
   * bytes: a FIN (lwIP's socket then takes no write and reports no acknowledgement) and, with `reset`,
   * a RST 10 ms later (a browser tab closed, curl stopped); each must be answered as the one before left.
   */
  function leaving(reset: boolean): void {
    for (let i = 0; i < 6; i++) {
      const c = net.connect(8080, PICO_SND_BUF);
      c.onReceived = () => {
        c.onReceived = null;
        c.halfClose();
        if (reset) net.setTimer(() => c.close(), 10, false);
      };
      c.send('GET /api/v1/openapi.json HTTP/1.1\r\nHost: 192.168.1.50\r\n\r\n');
      net.advance(6000);
      assert.ok(c.received.startsWith('HTTP/1.1 200 OK\r\n'), `client ${i + 1} had no answer in 6 s`);
      assert.ok(c.received.length < 18000, `client ${i + 1} left before the end`);
    }
  }

  for (const reset of [true, false]) {
    it(`answers each client within seconds after others left with a FIN${reset ? ' and a RST' : ' alone'}, then four clients whole`, () => {
      boot({ ...FULL_BOARD, ...PICO_PACING });
      const heap = new LwipHeap();
      net.lwip = heap;
      leaving(reset);
      const answers = fetchAll();
      assert.deepEqual(net.traces.filter((t) => t.includes('tcp write failed')), []);
      assert.equal(heap.failures, 0);
      for (const a of answers) assert.match(a.head, /^HTTP\/1\.1 200 OK\r\n/);
      assert.ok(Buffer.from(answers[1].body).equals(Resource.files.get(OPENAPI_RESOURCE)!), 'the document whole');
      assert.equal(heap.used, 0, 'lwIP still holds segments');
    });
  }
});

describe('paced writes and a refused client that closes as its 503 arrives', () => {
  after(() => { delete require.cache[MAIN]; net.reset(); });

  it('closes the refused connection at once, though the client\'s request arrived after the 503 and is never read', () => {
    boot({ ...FULL_BOARD, ...PICO_PACING });
    const heap = new LwipHeap();
    net.lwip = heap;
    const partial = [0, 1, 2, 3].map(() => net.connect(8080, PICO_SND_BUF));
    for (const c of partial) c.send('GET /api/v1/device/system/0/serialnumber HTTP/1.1\r\n'); // every slot busy and young
    net.run();
    const refused = net.connect(8080, PICO_SND_BUF);
    // Its request reaches the socket after the 503 went out; its FIN goes with its ACK of the 503 (one
    // delivery: the SDK reports the FIN, not the ACK, and only once the request's bytes are read).
    refused.onReceived = () => { if (replies(refused).length) refused.close(); };
    refused.send(get('system/0/serialnumber'));
    net.advance(1000);
    assert.equal(replies(refused)[0].status, 503);
    assert.ok(refused.closedByServer, 'the refused connection is still open');
    assert.equal(heap.used, 0, 'lwIP still holds segments');
  });
});

describe('paced writes to a client that reads slowly and asked the connection closed', () => {
  withResources();

  it('sends the whole document though it takes longer than the linger time, the client taking each segment', () => {
    boot({ ...FULL_BOARD, ...PICO_PACING });
    const heap = new LwipHeap(500); // each segment acknowledged half a second after it went: 13 segments, 6.5 s
    net.lwip = heap;
    const c = net.connect(8080, PICO_SND_BUF);
    c.send('GET /api/v1/openapi.json HTTP/1.1\r\nHost: 192.168.1.50\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n');
    net.advance(20000);
    const body = c.received.slice(c.received.indexOf('\r\n\r\n') + 4);
    assert.equal(body.length, Resource.files.get(OPENAPI_RESOURCE)!.length, 'the document whole');
    assert.ok(c.closedByServer, 'closed once it was sent');
  });
});

