// Request buffers on demand: a connection holds none while idle, makes one only for a request that
// comes in more than one read, grows it towards the limits only while that request needs it, and gives
// it back once the request is answered. The limits and their statuses do not change.
import { strict as assert } from 'node:assert';
import { rawExchange, simApi, splitResponses } from './helpers';
import { RequestParser, COMPLETE, FAILED } from '../src/http/request-parser';
import { BODY_MAX, HEADER_BLOCK_MAX, REQUEST_LINE_MAX } from '../src/http/http-limits';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
/** Buffer bytes an idle connection holds. */
const IDLE_MAX = 0;

function put(body: string, extraHeaders = ''): string {
  return `PUT /api/v1/device/system/0/hbinterval HTTP/1.1\r\nHost: localhost\r\n${extraHeaders}Content-Length: ${body.length}\r\n\r\n${body}`;
}

function chunked(body: string): string {
  let out = 'PUT /api/v1/device/system/0/hbinterval HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n';
  for (let i = 0; i < body.length; i += 100) out += (Math.min(100, body.length - i)).toString(16) + '\r\n' + body.slice(i, i + 100) + '\r\n';
  return out + '0\r\n\r\n';
}

describe('request buffers on demand', () => {
  it('a fresh connection holds no buffer; a head that comes in two reads gets one, given back after its answer', () => {
    const a = rawExchange(simApi(), []);
    assert.equal(a.connection.bytesHeld, 0);
    a.connection.receive(enc('GET /api/v1/device/system/0/serialnumber HTTP/1.1\r\n'));
    assert.equal(a.connection.bytesHeld, 512, 'the head so far is kept in a 512-byte buffer');
    a.connection.receive(enc('Host: localhost\r\n\r\n'));
    assert.equal(splitResponses(a.out)[0].status, 200);
    assert.equal(a.connection.bytesHeld, 0);
  });

  it('grows while a 4 KiB body arrives and shrinks back once it is answered', () => {
    const body = `{"value":20${' '.repeat(BODY_MAX - 12)}}`;
    assert.equal(body.length, BODY_MAX);
    const text = put(body);
    const a = rawExchange(simApi(), [text.slice(0, text.length - 10)]);
    assert.ok(a.connection.bytesHeld >= BODY_MAX, `mid-body: ${a.connection.bytesHeld}`);
    a.connection.receive(enc(text.slice(text.length - 10)));
    assert.equal(splitResponses(a.out)[0].status, 200);
    assert.equal(a.closed, false);
    assert.ok(a.connection.bytesHeld <= IDLE_MAX, `after: ${a.connection.bytesHeld}`);
  });

  it('grows for a chunked body and for a large header block, then shrinks back', () => {
    const body = `{"value":20${' '.repeat(3000)}}`;
    const big = `X-Pad: ${'p'.repeat(HEADER_BLOCK_MAX - 200)}\r\n`;
    const a = rawExchange(simApi(), [chunked(body), put('{"value":21}', big)]);
    const r = splitResponses(a.out);
    assert.deepEqual(r.map((x) => x.status), [200, 200]);
    assert.ok(a.connection.bytesHeld <= IDLE_MAX, `${a.connection.bytesHeld}`);
  });

  it('an idle keep-alive connection holds no buffer after 200 requests of every size', () => {
    const a = rawExchange(simApi(), []);
    for (let i = 0; i < 200; i++) {
      const pad = ' '.repeat((i * 37) % 3000);
      a.connection.receive(enc(i % 2 ? put(`{"value":${20 + (i % 5)}${pad}}`) : chunked(`{"value":20${pad}}`)));
      assert.ok(a.connection.bytesHeld <= IDLE_MAX, `request ${i}: ${a.connection.bytesHeld}`);
    }
    assert.equal(splitResponses(a.out).length, 200);
  });

  it('keeps the limits and their statuses: 414, 431, 413', () => {
    const cases: [string, number][] = [
      [`GET /${'a'.repeat(REQUEST_LINE_MAX)} HTTP/1.1\r\nHost: d\r\n\r\n`, 414],
      [`GET / HTTP/1.1\r\nHost: d\r\nX: ${'x'.repeat(HEADER_BLOCK_MAX)}\r\n\r\n`, 431],
      [`GET / HTTP/1.1\r\nHost: d\r\n${'X: y\r\n'.repeat(32)}\r\n`, 431],
      [put('x'.repeat(BODY_MAX + 1)), 413],
      [chunked('x'.repeat(BODY_MAX + 1)), 413],
    ];
    for (const [text, status] of cases) {
      const p = new RequestParser();
      const bytes = enc(text);
      let result = p.feed(bytes, 0, bytes.length);
      for (let at = p.consumed; result !== FAILED && result !== COMPLETE && at < bytes.length; at += p.consumed) result = p.feed(bytes, at, bytes.length);
      assert.deepEqual([result, p.errorStatus], [FAILED, status], text.slice(0, 30));
      // Refused before the buffers outgrow the limits.
      assert.ok(p.bytesHeld <= 2 * (REQUEST_LINE_MAX + 2 + HEADER_BLOCK_MAX) + BODY_MAX, `${p.bytesHeld}`);
    }
  });

  it('the longest request line and header block allowed still fit', () => {
    const line = `GET /${'a'.repeat(REQUEST_LINE_MAX - 14)} HTTP/1.1`;
    assert.equal(line.length, REQUEST_LINE_MAX);
    const block = (n: number): string => `Host: d\r\nX: ${'x'.repeat(n)}\r\n\r\n`;
    assert.equal(block(HEADER_BLOCK_MAX - 16).length, HEADER_BLOCK_MAX);
    const p = new RequestParser();
    const bytes = enc(`${line}\r\n${block(HEADER_BLOCK_MAX - 16)}`);
    assert.equal(p.feed(bytes, 0, bytes.length), COMPLETE);
    p.reset();
    assert.ok(p.bytesHeld <= IDLE_MAX);
    const over = enc(`${line}\r\n${block(HEADER_BLOCK_MAX - 15)}`);
    assert.equal(p.feed(over, 0, over.length), FAILED);
    assert.equal(p.errorStatus, 431);
  });
});
