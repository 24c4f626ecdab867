// Strict framing (docs/api.md §HTTP limits, RFC 9112) against request-smuggling and malformed-framing
// cases (tests/smuggling-cases.ts), through a whole Connection and the real API, in one piece and
// byte by byte. LLHTTP_MISSES are llhttp's strict request tests (test/request/*.md) that a lenient
// parser gets wrong, run here one by one; tools/http-corpus.mjs runs the whole llhttp corpus.
import { strict as assert } from 'node:assert';
import { Connection } from '../src/http/connection';
import type { HttpRequest, HttpResponse } from '../src/http/request';
import { simApi } from './helpers';
import { SMUGGLING_CASES as CASES } from './smuggling-cases';

const H = 'Host: d\r\n';

/** llhttp strict cases (invalid.md, transfer-encoding.md) this server accepted before; all must be 400. */
const LLHTTP_MISSES: [string, string][] = [
  ['Headers separated by LF', 'POST / HTTP/1.1\r\nHost: localhost:5000\r\nx:x\nTransfer-Encoding: chunked\r\n\r\n1\r\nA\r\n0\r\n'],
  ['Empty headers separated by LF', 'POST / HTTP/1.1\r\nHost: localhost:5000\r\nx:\nTransfer-Encoding: chunked\r\n\r\n1\r\nA\r\n0\r\n'],
  ['Missing CR between headers', 'GET / HTTP/1.1\r\nHost: localhost\r\nDummy: x\nContent-Length: 23\r\n\r\nGET / HTTP/1.1\r\nDummy: GET /admin HTTP/1.1\r\nHost: localhost\r\n\r\n'],
  ['No semicolon before chunk extensions', 'POST / HTTP/1.1\r\nHost: localhost\r\nTransfer-encoding: chunked\r\n\r\n2 erfrferferf\r\naa\r\n0 rrrr\r\n\r\n'],
  ['No extension after semicolon', 'POST / HTTP/1.1\r\nHost: localhost\r\nTransfer-encoding: chunked\r\n\r\n2;\r\naa\r\n0\r\n\r\n'],
  ['Unbalanced chunk extensions quoting', 'POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5;ilovew3="abc";somuchlove="def; ghi\r\nhello\r\n6;blahblah;blah\r\n world\r\n0\r\n'],
  ['Space after chunk header', 'PUT /url HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\na \r\n0123456789\r\n0\r\n\r\n'],
  ['Missing CRLF-CRLF before body (bare CR, no LF yet)', 'PUT /url HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\rabc'],
];

interface Outcome { handled: number; failStatus: number; closed: boolean; out: string }

/** Feed `text` to a fresh Connection over the real API, in one piece or byte by byte. */
function exchange(text: string, byteByByte = false): Outcome {
  const api = simApi();
  const o: Outcome = { handled: 0, failStatus: 0, closed: false, out: '' };
  const handler = {
    handle(req: HttpRequest, res: HttpResponse): void { o.handled++; api.handle(req, res); },
    fail(status: number, message: string, target: string, res: HttpResponse): void { o.failStatus = status; api.fail(status, message, target, res); },
    afterResponse(): void { api.afterResponse(); },
  };
  const c = new Connection(handler, { write: (b) => { o.out += Buffer.from(b).toString('latin1'); }, close: () => { o.closed = true; } });
  const bytes = Buffer.from(text, 'latin1');
  if (!byteByByte) c.receive(bytes);
  else for (let i = 0; i < bytes.length && !o.closed; i++) c.receive(bytes.subarray(i, i + 1));
  return o;
}

describe('strict framing: smuggling and malformed framing', () => {
  for (const [name, text, expect] of CASES) {
    it(`${name}: ${expect}`, () => {
      for (const byteByByte of [false, true]) {
        const o = exchange(text, byteByByte);
        const [kind, n] = expect.split(':');
        const rejected = o.handled === 0 && o.failStatus >= 400 && o.closed;
        const accepted = o.failStatus === 0 && o.handled === Number(n);
        const ok = kind === 'reject' ? rejected : kind === 'accept' ? accepted : rejected || accepted;
        assert.ok(ok, `${byteByByte ? 'byte by byte' : 'one piece'}: ${JSON.stringify(o)}`);
      }
    });
  }

  for (const [name, text] of LLHTTP_MISSES) {
    it(`llhttp: ${name}: 400 and nothing runs`, () => {
      const o = exchange(text);
      assert.deepEqual([o.handled, o.failStatus, o.closed], [0, 400, true]);
    });
  }

  it('CONNECT is 501 whatever its target, and closes', () => {
    for (const target of ['d:443', '/', '*', 'http://d/']) {
      const o = exchange(`CONNECT ${target} HTTP/1.1\r\n${H}\r\n`);
      assert.deepEqual([o.handled, o.failStatus, o.closed], [0, 501, true], target);
      assert.match(o.out, /^HTTP\/1\.1 501 Not Implemented\r\n/);
    }
  });

  it('a bare LF in the head is 400 even where it would end a line cleanly', () => {
    assert.equal(exchange('GET / HTTP/1.1\nHost: d\n\n').failStatus, 400);
    assert.equal(exchange('GET / HTTP/1.1\r\nHost: d\n\r\n').failStatus, 400);
    assert.equal(exchange('GET / HTTP/1.1\r\nHost: d\r\n\n').failStatus, 400);
  });
});
