// Answers whole through the Pico W's small lwIP heap: src/device/main.ts on the fakes with the Pico W's
// board pacing (writeMax one segment, two sockets sending at once) and the fake lwIP socket of
// tests/fakes/lwip-heap.ts, which refuses a write its 4,000-byte heap cannot take as tcp_write does.
// Four clients fetch the console page, the OpenAPI document, the device description and /metrics at
// once; each gets its answer whole, and no write is lost.

import { strict as assert } from 'node:assert';
import { gunzipSync } from 'node:zlib';
import { FULL_BOARD, get, net, replies } from './fakes/world';
import Resource from './fakes/resource';
import { LwipHeap, PICO_GIVE_UP_MS, PICO_MEM_SIZE, PICO_SND_BUF, SEGMENT_COST } from './fakes/lwip-heap';
import { latin1, type FakeClient } from './fakes/net';
import { dechunk } from './helpers';
import { parseExposition } from './metrics-helpers';
import { MAIN, PICO_PACING, boot, fetchAll, withResources } from './lwip-writes-helpers';
import { CONSOLE_RESOURCE } from '../src/device/console-resource';
import { OPENAPI_RESOURCE } from '../src/device/openapi';

describe('answers whole through the Pico W lwIP heap (4 clients at once)', () => {
  withResources();

  it('gives each client the page, the OpenAPI document, the description and /metrics whole', () => {
    // What a stack with room to spare answers (no lwIP heap), to compare with.
    boot({ ...FULL_BOARD, ...PICO_PACING });
    const roomy = fetchAll();
    boot({ ...FULL_BOARD, ...PICO_PACING });
    const heap = new LwipHeap();
    net.lwip = heap;
    const answers = fetchAll();
    assert.deepEqual(net.traces.filter((t) => t.includes('tcp write failed')), []);
    assert.equal(heap.failures, 0);
    assert.ok(heap.peak <= PICO_MEM_SIZE);
    for (const a of answers) assert.match(a.head, /^HTTP\/1\.1 200 OK\r\n/);
    const [page, openapi, description, metrics] = answers;
    assert.ok(Buffer.from(page.body).equals(Resource.files.get(CONSOLE_RESOURCE)!), 'the page as linked');
    assert.ok(Buffer.from(openapi.body).equals(Resource.files.get(OPENAPI_RESOURCE)!), 'the document as linked');
    assert.equal(JSON.parse(gunzipSync(openapi.body).toString('utf8')).openapi.slice(0, 2), '3.');
    const text = (b: Uint8Array): string => Buffer.from(b).toString('utf8');
    assert.deepEqual(JSON.parse(text(description.body)).response, JSON.parse(text(roomy[2].body)).response);
    const families = parseExposition(text(metrics.body));
    assert.deepEqual(families.map((f) => f.name), parseExposition(text(roomy[3].body)).map((f) => f.name));
  });

  it('loses answers without the pacing through the SDK\'s write: the test can fail (the fake lwIP refuses what tcp_write would)', () => {
    boot(FULL_BOARD);
    const heap = new LwipHeap();
    net.lwip = heap;
    net.sdkWrites = true;
    assert.throws(() => fetchAll(), /body cut|truncated|no answer head/);
    assert.ok(heap.failures > 0);
    assert.ok(net.traces.includes('tcp write failed\n'));
  });

  /** The heap with room for one segment only for its first half second: other connections' small segments sit in it. */
  function crowded(heap: LwipHeap): void {
    const others = PICO_MEM_SIZE - SEGMENT_COST - 100;
    heap.used += others;
    net.setTimer(() => { heap.used -= others; }, 500, false);
  }

  it('writes again, at the next tick, a paced write the heap had no room for: every answer whole', () => {
    boot({ ...FULL_BOARD, ...PICO_PACING });
    const heap = new LwipHeap();
    net.lwip = heap;
    crowded(heap);
    const answers = fetchAll();
    assert.ok(heap.failures > 0, 'the heap refused writes');
    assert.deepEqual(net.traces.filter((t) => t.includes('tcp write failed')), []);
    for (const a of answers) assert.match(a.head, /^HTTP\/1\.1 200 OK\r\n/);
    assert.ok(Buffer.from(answers[1].body).equals(Resource.files.get(OPENAPI_RESOURCE)!), 'the document whole');
    assert.equal(heap.used, 0);
  });

  it('cuts answers in the same crowded heap with the SDK\'s write (the test can fail)', () => {
    boot({ ...FULL_BOARD, ...PICO_PACING });
    const heap = new LwipHeap();
    net.lwip = heap;
    net.sdkWrites = true;
    crowded(heap);
    assert.throws(() => fetchAll(), /body cut|truncated|no answer head/);
    assert.ok(net.traces.includes('tcp write failed\n'));
  });
});

describe('paced writes and clients that vanish (acknowledge nothing more)', () => {
  withResources();

  /** A client that asks for the console page and is gone after its first bytes: it acknowledges nothing more. */
  function vanishing(): FakeClient {
    const c = net.connect(8080, PICO_SND_BUF);
    c.send('GET / HTTP/1.1\r\nHost: 192.168.1.50\r\n\r\n');
    c.onReceived = () => c.setReading(false);
    return c;
  }

  it('keeps a vanished client\'s turn while lwIP holds its bytes after the close; four clients then get theirs whole', () => {
    boot({ ...FULL_BOARD, ...PICO_PACING });
    const heap = new LwipHeap();
    net.lwip = heap;
    const gone = vanishing();
    net.advance(40000); // its idle timeout and linger: closed for the server
    assert.ok(gone.received.length > 0 && gone.received.length < 8000, 'it vanished mid-answer');
    assert.ok(heap.used >= SEGMENT_COST, 'lwIP still holds its last segment');
    const answers = fetchAll();
    assert.deepEqual(net.traces.filter((t) => t.includes('tcp write failed')), []);
    assert.equal(heap.failures, 0);
    for (const a of answers) assert.match(a.head, /^HTTP\/1\.1 200 OK\r\n/);
    assert.ok(Buffer.from(answers[0].body).equals(Resource.files.get(CONSOLE_RESOURCE)!), 'the page whole');
  });

  it('with both turns held by vanished clients, a newcomer waits until lwIP drops them, then is answered', () => {
    boot({ ...FULL_BOARD, ...PICO_PACING });
    const heap = new LwipHeap();
    net.lwip = heap;
    const gone = [vanishing(), vanishing()];
    net.advance(40000);
    const late = net.connect(8080, PICO_SND_BUF);
    late.send(get('system/0/serialnumber'));
    net.advance(PICO_GIVE_UP_MS - 60000);
    assert.equal(late.received, '', 'written into the heap the vanished clients hold');
    net.advance(120000); // lwIP has given up on both and said so: their turns end
    assert.equal(replies(late).length, 1, 'the newcomer was answered');
    assert.equal(replies(late)[0].json.response.value, 0x1234abcd);
    assert.ok(gone.every((c) => c.closedByServer), 'the vanished clients\' sockets were closed');
    assert.equal(heap.used, 0);
    assert.equal(heap.failures, 0);
  });
});

describe('paced writes and clients that close once they have their answer (as curl does)', () => {
  after(() => { delete require.cache[MAIN]; net.reset(); });

  it('answers 20 requests in a row, one every 10 s, each client closing as its answer arrives', () => {
    boot({ ...FULL_BOARD, ...PICO_PACING });
    const heap = new LwipHeap();
    net.lwip = heap;
    for (let i = 1; i <= 20; i++) {
      const c = net.connect(8080, PICO_SND_BUF);
      // Its last ACK and its FIN reach the socket in one delivery: onError, and no onWritable after it.
      c.onReceived = () => { if (replies(c).length) c.close(); };
      c.send(get('system/0/serialnumber'));
      net.advance(10000);
      assert.equal(replies(c).length, 1, `request ${i} had no answer in 10 s`);
      assert.equal(replies(c)[0].json.response.value, 0x1234abcd);
      assert.ok(c.closedByServer, `connection ${i} still open`);
    }
    assert.equal(heap.used, 0, 'lwIP still holds segments');
    assert.equal(heap.failures, 0);
  });
});

describe('paced writes to a client alone', () => {
  withResources();

  it('has one segment in flight, with Nagle off, and gets the document whole', () => {
    boot({ ...FULL_BOARD, ...PICO_PACING });
    const heap = new LwipHeap();
    net.lwip = heap;
    const c = net.connect(8080, PICO_SND_BUF);
    c.send('GET /api/v1/openapi.json HTTP/1.1\r\nHost: 192.168.1.50\r\nAccept-Encoding: gzip\r\n\r\n');
    net.advance(20000);
    assert.match(c.received, /^HTTP\/1\.1 200 OK\r\n/);
    const body = c.received.slice(c.received.indexOf('\r\n\r\n') + 4);
    assert.equal(body.length, Resource.files.get(OPENAPI_RESOURCE)!.length, 'the document whole');
    assert.equal(heap.peak, SEGMENT_COST, 'one turn in flight: the other stays free for another client');
    assert.equal(heap.failures, 0);
    assert.equal(c.conn.server?.nodelay, true);
  });
});

describe('paced writes of a streamed answer', () => {
  after(() => { delete require.cache[MAIN]; net.reset(); });

  it('joins the small pieces of /metrics into segments: the client has it whole after three acknowledgements, not one per piece', () => {
    boot({ ...FULL_BOARD, ...PICO_PACING });
    const heap = new LwipHeap(); // each write acknowledged 20 ms after it
    net.lwip = heap;
    const c = net.connect(8080, PICO_SND_BUF);
    c.send('GET /metrics HTTP/1.1\r\nHost: 192.168.1.50\r\n\r\n');
    net.advance(3 * heap.ackDelayMs + 5);
    const end = c.received.indexOf('\r\n\r\n');
    assert.ok(end > 0, 'no head yet');
    const body = latin1(c.received).subarray(end + 4);
    assert.ok(dechunk(body).used === body.length && body.length > 500, `${body.length} bytes of the body so far`);
    assert.equal(heap.failures, 0);
    assert.ok(heap.peak <= 2 * SEGMENT_COST);
  });
});

