// RequestParser units: request line, headers, framing, limits, and any split of the bytes.
import { strict as assert } from 'node:assert';
import { BODY_FOLLOWS, COMPLETE, FAILED, NEED_MORE, RequestParser } from '../src/http/request-parser';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const dec = (b: Uint8Array): string => new TextDecoder().decode(b);

interface Parsed {
  complete: boolean;
  failed: boolean;
  status: number;
  method: string;
  target: string;
  minor: number;
  keepAlive: boolean;
  body: string;
  consumed: number;
}

/** Feed `text` in pieces of `step` bytes (0 = all at once) and report the first request. */
function parse(text: string | Uint8Array, step = 0): Parsed {
  const bytes = typeof text === 'string' ? enc(text) : text;
  const p = new RequestParser();
  let consumed = 0;
  let r = NEED_MORE;
  const size = step || bytes.length;
  for (let off = 0; off < bytes.length && r !== COMPLETE && r !== FAILED; off += size) {
    const end = Math.min(off + size, bytes.length);
    // Within a piece, feed again after BODY_FOLLOWS (the parser stops at the head's end).
    for (let pos = off; pos < end && r !== COMPLETE && r !== FAILED;) {
      r = p.feed(bytes, pos, end);
      pos += p.consumed;
      consumed += p.consumed;
      if (r === NEED_MORE && pos < end) throw new Error('NEED_MORE before the end of the bytes');
    }
  }
  return {
    complete: r === COMPLETE, failed: r === FAILED, status: p.errorStatus, method: p.method, target: p.target,
    minor: p.versionMinor, keepAlive: p.keepAlive, body: dec(p.body()), consumed,
  };
}

function expectStatus(text: string, status: number): void {
  const r = parse(text);
  assert.equal(r.failed, true, `expected ${status} for ${JSON.stringify(text.slice(0, 80))}`);
  assert.equal(r.status, status, JSON.stringify(text.slice(0, 80)));
}

const GET = 'GET /api/v1/device/system/0/serialnumber HTTP/1.1\r\nHost: dev\r\n\r\n';
const PUT = 'PUT /api/v1/device/system/0/hbinterval HTTP/1.1\r\nHost: dev\r\nContent-Length: 12\r\n\r\n{"value":20}';
const CHUNKED = 'PUT /x HTTP/1.1\r\nHost: d\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\n{"val\r\n7\r\nue":20}\r\n0\r\nX-Trailer: t\r\n\r\n';

describe('request parser', () => {
  it('parses a GET', () => {
    const r = parse(GET);
    assert.deepEqual([r.complete, r.method, r.target, r.minor, r.keepAlive, r.body], [true, 'GET', '/api/v1/device/system/0/serialnumber', 1, true, '']);
    assert.equal(r.consumed, enc(GET).length);
  });

  it('parses a Content-Length body and a chunked body with extensions and trailers', () => {
    assert.equal(parse(PUT).body, '{"value":20}');
    const c = parse(CHUNKED);
    assert.equal(c.complete, true);
    assert.equal(c.body, '{"value":20}');
  });

  for (const [name, text] of [['GET', GET], ['PUT', PUT], ['chunked PUT', CHUNKED]]) {
    it(`gives the same result for every split of a ${name} (byte by byte up to whole)`, () => {
      const whole = parse(text);
      for (let step = 1; step <= enc(text).length; step++) assert.deepEqual(parse(text, step), whole, `step ${step}`);
    });
  }

  it('stops at the end of a request, leaving pipelined bytes for the next', () => {
    const both = enc(GET + PUT);
    const p = new RequestParser();
    assert.equal(p.feed(both, 0, both.length), COMPLETE);
    const n = p.consumed;
    assert.equal(n, enc(GET).length);
    p.reset();
    assert.equal(p.feed(both, n, both.length), BODY_FOLLOWS);
    const headEnd = n + p.consumed;
    assert.equal(headEnd, both.length - 12);
    assert.equal(p.feed(both, headEnd, both.length), COMPLETE);
    assert.equal(p.consumed, 12);
    assert.equal(p.method, 'PUT');
    assert.equal(dec(p.body()), '{"value":20}');
  });

  it('skips empty lines before the request line (RFC 9112 §2.2)', () => {
    assert.equal(parse('\r\n\r\n' + GET).complete, true);
  });

  it('accepts tabs around values, and HTTP/1.0', () => {
    assert.equal(parse('GET / HTTP/1.1\r\nHost:\tdev \t\r\n\r\n').complete, true);
    const r = parse('GET / HTTP/1.0\r\n\r\n');
    assert.deepEqual([r.complete, r.minor, r.keepAlive], [true, 0, false]);
  });

  it('reads Connection: close and reduces an absolute-form target to its path', () => {
    assert.equal(parse('GET / HTTP/1.1\r\nHost: d\r\nConnection: keep-alive, Close\r\n\r\n').keepAlive, false);
    assert.equal(parse('GET http://dev:9005/api/v1/device?x=1 HTTP/1.1\r\nHost: d\r\n\r\n').target, '/api/v1/device?x=1');
    assert.equal(parse('GET http://dev HTTP/1.1\r\nHost: d\r\n\r\n').target, '/');
  });

  it('answers 505 to other HTTP versions and 400 to a malformed one', () => {
    expectStatus('GET / HTTP/2.0\r\nHost: d\r\n\r\n', 505);
    expectStatus('GET / HTTP/1.2\r\nHost: d\r\n\r\n', 505);
    expectStatus('GET / HTTX/1.1\r\nHost: d\r\n\r\n', 400);
    expectStatus('GET / HTTP/1.10\r\nHost: d\r\n\r\n', 400);
    expectStatus('GET /\r\n\r\n', 400);
  });

  it('rejects malformed request lines', () => {
    expectStatus('GET  / HTTP/1.1\r\nHost: d\r\n\r\n', 400);
    expectStatus('G(T / HTTP/1.1\r\nHost: d\r\n\r\n', 400);
    expectStatus('GET /a\x01b HTTP/1.1\r\nHost: d\r\n\r\n', 400);
    expectStatus('GET a/b HTTP/1.1\r\nHost: d\r\n\r\n', 400);
    expectStatus('GET / HTTP/1.1 \r\nHost: d\r\n\r\n', 400);
  });

  it('enforces the request-line limit (414) and header limits (431)', () => {
    const long = '/' + 'a'.repeat(1030);
    expectStatus(`GET ${long} HTTP/1.1\r\nHost: d\r\n\r\n`, 414);
    // exactly 1024 bytes of request line is fine
    const fits = 'GET /' + 'a'.repeat(1024 - 'GET / HTTP/1.1'.length) + ' HTTP/1.1';
    assert.equal(fits.length, 1024);
    assert.equal(parse(fits + '\r\nHost: d\r\n\r\n').complete, true);
    let many = 'GET / HTTP/1.1\r\nHost: d\r\n';
    for (let i = 0; i < 32; i++) many += `X-${i}: 1\r\n`;
    expectStatus(many + '\r\n', 431);
    expectStatus('GET / HTTP/1.1\r\nHost: d\r\nX: ' + 'v'.repeat(4100) + '\r\n\r\n', 431);
  });

  it('enforces the body limit (413) for Content-Length and chunked bodies', () => {
    expectStatus('PUT / HTTP/1.1\r\nHost: d\r\nContent-Length: 4097\r\n\r\n', 413);
    expectStatus('PUT / HTTP/1.1\r\nHost: d\r\nContent-Length: 99999999999999\r\n\r\n', 413);
    expectStatus('PUT / HTTP/1.1\r\nHost: d\r\nTransfer-Encoding: chunked\r\n\r\n1001\r\n', 413);
    expectStatus('PUT / HTTP/1.1\r\nHost: d\r\nContent-Length: 99999999999999999999999999\r\n\r\n', 413);
    assert.equal(parse('PUT / HTTP/1.1\r\nHost: d\r\nContent-Length: 000000000000003\r\n\r\nabc').body, 'abc');
    const ok = parse('PUT / HTTP/1.1\r\nHost: d\r\nContent-Length: 4096\r\n\r\n' + 'x'.repeat(4096));
    assert.equal(ok.complete, true);
    assert.equal(ok.body.length, 4096);
  });

  it('rejects framing that could smuggle a request', () => {
    expectStatus('PUT / HTTP/1.1\r\nHost: d\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n', 400);
    expectStatus('PUT / HTTP/1.1\r\nHost: d\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\n', 400);
    expectStatus('PUT / HTTP/1.1\r\nHost: d\r\nContent-Length: 5, 5\r\n\r\n', 400);
    expectStatus('PUT / HTTP/1.1\r\nHost: d\r\nContent-Length: -1\r\n\r\n', 400);
    expectStatus('PUT / HTTP/1.1\r\nHost: d\r\nContent-Length: 0x10\r\n\r\n', 400);
    expectStatus('PUT / HTTP/1.1\r\nHost: d\r\nContent-Length : 5\r\n\r\n', 400);
    expectStatus('PUT / HTTP/1.1\r\nHost: d\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n', 400);
    expectStatus('PUT / HTTP/1.1\r\nHost: d\r\nTransfer-Encoding: gzip, chunked\r\n\r\n', 400);
    expectStatus('PUT / HTTP/1.1\r\nHost: d\r\nTransfer-Encoding: foo\r\n\r\n', 501);
    expectStatus('PUT / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n', 400);
  });

  it('rejects obs-fold, bare CR, NUL and bad header names', () => {
    expectStatus('GET / HTTP/1.1\r\nHost: d\r\nX: a\r\n b\r\n\r\n', 400);
    expectStatus('GET / HTTP/1.1\r\nHost: d\r\nX: a\rb\r\n\r\n', 400);
    expectStatus('GET / HTTP/1.1\r\nHost: d\r\nX: a\x00b\r\n\r\n', 400);
    expectStatus('GET / HTTP/1.1\r\nHost: d\r\nX Y: a\r\n\r\n', 400);
    expectStatus('GET / HTTP/1.1\r\nHost: d\r\n: a\r\n\r\n', 400);
    expectStatus('GET / HTTP/1.1\r\nHost: d\r\nNoColon\r\n\r\n', 400);
  });

  it('requires exactly one valid Host on HTTP/1.1', () => {
    expectStatus('GET / HTTP/1.1\r\n\r\n', 400);
    expectStatus('GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n', 400);
    expectStatus('GET / HTTP/1.1\r\nHost: a b\r\n\r\n', 400);
    expectStatus('GET / HTTP/1.1\r\nHost: a/b\r\n\r\n', 400);
    assert.equal(parse('GET / HTTP/1.1\r\nHost: [::1]:9005\r\n\r\n').complete, true);
  });

  it('rejects bad chunk sizes, overflow and missing CRLFs in chunked framing', () => {
    const head = 'PUT / HTTP/1.1\r\nHost: d\r\nTransfer-Encoding: chunked\r\n\r\n';
    expectStatus(head + 'g\r\n', 400);
    expectStatus(head + '-1\r\n', 400);
    expectStatus(head + '000000001\r\n', 400);
    expectStatus(head + '00001001\r\n', 413);
    expectStatus(head + 'ffffffffffffffff\r\n', 400);
    expectStatus(head + '3\nabc\r\n0\r\n\r\n', 400);
    expectStatus(head + '3\r\nabcd\r\n0\r\n\r\n', 400);
    expectStatus(head + '3\r\nabc\n0\r\n\r\n', 400);
    expectStatus(head + '3\r\nabc\r\n0\r\n\n', 400);
    expectStatus(head + '3;e=\x01\r\nabc\r\n0\r\n\r\n', 400);
  });

  it('notes Expect: 100-continue only when a body is to come', () => {
    const p = new RequestParser();
    const b = enc('PUT / HTTP/1.1\r\nHost: d\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n');
    assert.equal(p.feed(b, 0, b.length), BODY_FOLLOWS);
    assert.equal(p.expectContinue, true);
    assert.equal(p.inBody, true);
    const q = new RequestParser();
    const g = enc('GET / HTTP/1.1\r\nHost: d\r\nExpect: 100-continue\r\n\r\n');
    assert.equal(q.feed(g, 0, g.length), COMPLETE);
    assert.equal(q.expectContinue, false);
  });
});
