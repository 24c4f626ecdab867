// Strict framing (DECISIONS §HTTP/1.1, RFC 9112) against request-smuggling and malformed-framing
// cases, through a whole Connection and the real API. Each row: a name, the bytes, and what must
// happen: 'reject' (an error answer before anything runs), 'accept:N' (N requests reach the API), or
// 'either:N' where the RFC allows both. The rows marked in LLHTTP_MISSES come from llhttp's strict
// request tests (test/request/*.md) that this server used to get wrong.
import { strict as assert } from 'node:assert';
import { Connection } from '../src/http/connection';
import type { HttpRequest, HttpResponse } from '../src/http/request';
import { simApi } from './helpers';

const H = 'Host: d\r\n';
const P = 'POST /api/v1/device/system/0/hbinterval HTTP/1.1\r\n' + H;
const G = 'GET /api/v1/device/system/0/serialnumber HTTP/1.1\r\n' + H + '\r\n';
const CH = P + 'Transfer-Encoding: chunked\r\n\r\n';
const CASES: [string, string, string][] = [
  ['CL.TE', P + 'Content-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nG', 'reject'],
  ['TE.CL', P + 'Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n8\r\nSMUGGLED\r\n0\r\n\r\n', 'reject'],
  ['TE twice in two fields', P + 'Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 'reject'],
  ['TE chunked, chunked', P + 'Transfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n', 'reject'],
  ['TE leading space', P + 'Transfer-Encoding:  chunked\r\n\r\n0\r\n\r\n', 'accept:1'],
  ['TE trailing space', P + 'Transfer-Encoding: chunked \r\n\r\n0\r\n\r\n', 'accept:1'],
  ['TE tab before value', P + 'Transfer-Encoding:\tchunked\r\n\r\n0\r\n\r\n', 'accept:1'],
  ['TE upper case', P + 'Transfer-Encoding: CHUNKED\r\n\r\n0\r\n\r\n', 'accept:1'],
  ['space before colon', P + 'Transfer-Encoding : chunked\r\n\r\n0\r\n\r\n', 'reject'],
  ['tab before colon', P + 'Transfer-Encoding\t: chunked\r\n\r\n0\r\n\r\n', 'reject'],
  ['TE xchunked', P + 'Transfer-Encoding: xchunked\r\n\r\n0\r\n\r\n', 'reject'],
  ['TE chunked, identity', P + 'Transfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n', 'reject'],
  ['TE identity, chunked', P + 'Transfer-Encoding: identity, chunked\r\n\r\n0\r\n\r\n', 'reject'],
  ['TE obs-fold', P + 'Transfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\n', 'reject'],
  ['TE in HTTP/1.0', 'POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 'reject'],
  ['TE after a bare LF', P + 'X: x\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 'reject'],
  ['TE after a bare CR', P + 'X: x\rTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 'reject'],
  ['TE with NUL', P + 'Transfer-Encoding: chunked\x00\r\n\r\n0\r\n\r\n', 'reject'],
  ['TE with VT', P + 'Transfer-Encoding:\x0bchunked\r\n\r\n0\r\n\r\n', 'reject'],
  ['TE and CL 0', P + 'Transfer-Encoding: chunked\r\nContent-Length: 0\r\n\r\n0\r\n\r\n', 'reject'],
  ['CL +5', P + 'Content-Length: +5\r\n\r\nhello', 'reject'],
  ['CL -1', P + 'Content-Length: -1\r\n\r\n', 'reject'],
  ['CL 0x5', P + 'Content-Length: 0x5\r\n\r\nhello', 'reject'],
  ['CL 5 5', P + 'Content-Length: 5 5\r\n\r\nhello', 'reject'],
  ['CL list 5, 5', P + 'Content-Length: 5, 5\r\n\r\nhello', 'either:1'],
  ['CL twice, same', P + 'Content-Length: 5\r\nContent-Length: 5\r\n\r\nhello', 'either:1'],
  ['CL twice, different', P + 'Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello!', 'reject'],
  ['CL 1e3', P + 'Content-Length: 1e3\r\n\r\n', 'reject'],
  ['CL surrounded by spaces', P + 'Content-Length:  5 \r\n\r\nhello', 'accept:1'],
  ['CL with NUL', P + 'Content-Length: 5\x00\r\n\r\nhello', 'reject'],
  ['CL empty', P + 'Content-Length:\r\n\r\n', 'reject'],
  ['chunk size 0x5', CH + '0x5\r\nhello\r\n0\r\n\r\n', 'reject'],
  ['chunk size leading space', CH + ' 5\r\nhello\r\n0\r\n\r\n', 'reject'],
  ['chunk size trailing space', CH + '5 \r\nhello\r\n0\r\n\r\n', 'reject'],
  ['chunk size overflow', CH + 'fffffffffffffffff5\r\nhello\r\n0\r\n\r\n', 'reject'],
  ['chunk size negative', CH + '-5\r\nhello\r\n0\r\n\r\n', 'reject'],
  ['chunk data too long', CH + '3\r\nhello\r\n0\r\n\r\n', 'reject'],
  ['chunk data too short', CH + '7\r\nhello\r\n0\r\n\r\n' + G, 'reject'],
  ['chunk size line bare LF', CH + '5\nhello\r\n0\r\n\r\n', 'reject'],
  ['chunk data bare LF', CH + '5\r\nhello\n0\r\n\r\n', 'reject'],
  ['last chunk bare LFs', CH + '0\n\n', 'reject'],
  ['chunk ext bare LF', CH + '5;a\nhello\r\n0\r\n\r\n', 'reject'],
  ['chunk ext unterminated quote', CH + '5;a="b\r\nhello\r\n0\r\n\r\n', 'reject'],
  ['chunk ext quoted with escape', CH + '5;a="b\\"c";d=e\r\nhello\r\n0\r\n\r\n', 'accept:1'],
  ['chunk ext BWS', CH + '5 ; a = b\r\nhello\r\n0\r\n\r\n', 'accept:1'],
  ['chunk ext CR in quote', CH + '5;a="b\rc"\r\nhello\r\n0\r\n\r\n', 'reject'],
  ['chunk ext without name', CH + '5;=b\r\nhello\r\n0\r\n\r\n', 'reject'],
  ['chunk ext value with space', CH + '5;a=b c\r\nhello\r\n0\r\n\r\n', 'reject'],
  ['trailer bare LF', CH + '0\r\nX: y\n\r\n', 'reject'],
  ['trailer obs-fold', CH + '0\r\nX: y\r\n z\r\n\r\n', 'reject'],
  ['trailer without colon', CH + '0\r\nXy\r\n\r\n', 'reject'],
  ['trailer then pipelined GET', CH + '5\r\nhello\r\n0\r\nX: y\r\n\r\n' + G, 'accept:2'],
  ['header bare CR in value', P + 'X: a\rb\r\nContent-Length: 0\r\n\r\n', 'reject'],
  ['header name with space', P + 'Content Length: 5\r\n\r\nhello', 'reject'],
  ['first header folded', 'GET / HTTP/1.1\r\n ' + H + '\r\n', 'reject'],
  ['NUL in value', 'GET / HTTP/1.1\r\n' + H + 'X: a\x00b\r\n\r\n', 'reject'],
  ['two spaces in request line', 'GET  / HTTP/1.1\r\n' + H + '\r\n', 'reject'],
  ['tab in request line', 'GET\t/ HTTP/1.1\r\n' + H + '\r\n', 'reject'],
  ['lower-case version', 'GET / http/1.1\r\n' + H + '\r\n', 'reject'],
  ['HTTP/1.2', 'GET / HTTP/1.2\r\n' + H + '\r\n', 'either:1'],
  ['HTTP/2.0 request line', 'GET / HTTP/2.0\r\n' + H + '\r\n', 'reject'],
  ['request line CR CR LF', 'GET / HTTP/1.1\r\r\n' + H + '\r\n', 'reject'],
  ['head ends CR CR LF', 'GET / HTTP/1.1\r\n' + H + '\r\r\n', 'reject'],
  ['leading bare LF', '\n' + G, 'either:1'],
  ['leading CRLF', '\r\n' + G, 'accept:1'],
  ['absolute-form target', 'GET http://other/api/v1/device HTTP/1.1\r\n' + H + '\r\n', 'accept:1'],
  ['no Host in 1.1', 'GET / HTTP/1.1\r\n\r\n', 'reject'],
  ['two Hosts', 'GET / HTTP/1.1\r\n' + H + H + '\r\n', 'reject'],
  ['Host with a space', 'GET / HTTP/1.1\r\nHost: a b\r\n\r\n', 'reject'],
  ['CONNECT authority-form', 'CONNECT d:443 HTTP/1.1\r\n' + H + '\r\n', 'reject'],
  ['CONNECT origin-form', 'CONNECT / HTTP/1.1\r\n' + H + '\r\n', 'reject'],
  ['pipelined CL 0 then GET', P + 'Content-Length: 0\r\n\r\n' + G, 'accept:2'],
  ['Expect 100-continue', P + 'Expect: 100-continue\r\nContent-Length: 2\r\n\r\n{}', 'accept:1'],
  ['33 header fields', 'GET / HTTP/1.1\r\n' + H + 'X: y\r\n'.repeat(32) + '\r\n', 'reject'],
  ['request line over 1 KiB', 'GET /' + 'a'.repeat(1100) + ' HTTP/1.1\r\n' + H + '\r\n', 'reject'],
];

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
