// The parser's fast path for a head that arrives whole (src/http/whole-head.ts) must give exactly what
// the byte-by-byte path gives: the same result, bytes used, request fields, framing and error status,
// for the smuggling corpus, hand-picked heads and generated ones. A parser made with a null codec
// keeps every head on the byte path; the engine's codec decodes the read as UTF-8, the simulator's
// (host-sim/server.ts) as Latin-1, and the pattern finds the head's end in that text: both must agree
// with the byte path, whatever bytes follow the head (UTF-8 whole or cut, bytes no UTF-8 has).

import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { RequestParser } from '../src/http/request-parser';
import { SMUGGLING_CASES } from './smuggling-cases';
import { nodeTextCodec } from '../host-sim/server';

const enc = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff);

function outcome(p: RequestParser, bytes: Uint8Array): unknown {
  const result = p.feed(bytes, 0, bytes.length);
  return {
    result, consumed: p.consumed, method: p.method, target: p.target, minor: p.versionMinor, keepAlive: p.keepAlive,
    expectContinue: p.expectContinue, host: p.host, origin: p.origin, secFetchSite: p.secFetchSite,
    authorization: p.authorization, acceptEncoding: p.acceptEncoding, ifNoneMatch: p.ifNoneMatch,
    acrm: p.accessControlRequestMethod, marks: p.clientMarks, status: p.errorStatus, inBody: p.inBody,
  };
}

function sameBothWays(text: string): void {
  const bytes = enc(text);
  const bytePath = outcome(new RequestParser(null), bytes);
  assert.deepEqual(outcome(new RequestParser(), bytes), bytePath, JSON.stringify(text));
  assert.deepEqual(outcome(new RequestParser(nodeTextCodec), bytes), bytePath, `latin1: ${JSON.stringify(text)}`);
}

const HEADS = [
  'GET /api/v1/device/system/0/serialnumber HTTP/1.1\r\nHost: 127.0.0.1:9005\r\n\r\n',
  'GET / HTTP/1.0\r\n\r\n',
  'PUT /x HTTP/1.1\r\nHost: localhost\r\nContent-Length: 000000000000003\r\n\r\nabc',
  'PUT /x HTTP/1.1\r\nHost: localhost\r\nContent-Length: 99999999999999999999999\r\n\r\n',
  'PUT /x HTTP/1.1\r\nHost: h\r\nExpect: 100-Continue\r\nContent-Length: 2\r\n\r\n',
  'GET /x HTTP/1.1\r\nHost: h\r\nConnection: keep-alive, Close\r\n\r\n',
  'GET /x HTTP/1.1\r\nHost: h\r\nConnection: closed\r\n\r\n',
  'OPTIONS /x HTTP/1.1\r\nHost: h\r\nOrigin: http://a.example\r\nAccess-Control-Request-Method: PUT\r\n\r\n',
  'GET /x HTTP/1.1\r\nHost:  spaced \t\r\nAuthorization: Bearer  t0k3n \r\nSec-Fetch-Site: cross-site\r\nIf-None-Match: "e"\r\nAccept-Encoding: gzip\r\n\r\n',
  'GET /x HTTP/1.1\r\nHost: h\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64)\r\nReferer: http://wiki.example/\r\n\r\n',
  'GET /x HTTP/1.1\r\nHost: h\r\nuser-agent: curl/7.88.1\r\nSec-Fetch-Mode: no-cors\r\n\r\n',
  'PUT /x HTTP/1.1\r\nHost: h\r\nX-Requested-With: brainstem-console\r\nUSER-AGENT: Mozilla/5.0\r\nContent-Length: 0\r\n\r\n',
  'PUT /x HTTP/1.1\r\nHost: h\r\nX-Requested-With:\r\nUser-Agent: python-requests/2.28.1\r\nContent-Length: 0\r\n\r\n',
  'GET /x HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n',
  'GET /x HTTP/1.1\r\nHost: a b\r\n\r\n',
  'GET /x HTTP/1.1\r\nHost: caf\u00e9\r\n\r\n',
  'GET /x HTTP/1.1\r\nX: \u00ff\r\nHost: h\r\n\r\n',
  'GET /x HTTP/1.1\r\n\r\n',
  'CONNECT /x HTTP/1.1\r\nHost: h\r\n\r\n',
  'GET * HTTP/1.1\r\nHost: h\r\n\r\n',
  'GET http://h/x?y HTTP/1.1\r\nHost: h\r\n\r\n',
  'GET /x HTTP/1.2\r\nHost: h\r\n\r\n',
  'GET /x HTTP/1.1\r\nHost: h\r\nX:\x7f\r\n\r\n',
  `GET /${'a'.repeat(1100)} HTTP/1.1\r\nHost: h\r\n\r\n`,
  `GET / HTTP/1.1\r\nHost: h\r\n${'X: y\r\n'.repeat(33)}\r\n`,
  `GET / HTTP/1.1\r\nHost: h\r\nX: ${'x'.repeat(4100)}\r\n\r\n`,
  'GET /x HTTP/1.1\r\nHost: h\r\n\r\nGET /y HTTP/1.1\r\nHost: h\r\n\r\n',
  'PUT /x HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\n\r\n\xc3\xa9\xc3\xa9',
  'PUT /x HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\n\xff\xfe\x80',
  'PUT /x HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\n\xe2\x82',
  'GET /x HTTP/1.1\r\nHost: h\r\nX: \xc3\xa9\r\n\r\n',
  'GET /x HTTP/1.1\r\nHost: h\r\n\xc3\xa9',
  `PUT /x HTTP/1.1\r\nHost: h\r\nContent-Length: 9000\r\n\r\n${'\xe2\x82\xac'.repeat(3000)}`,
];

describe('what a head says of its sender (src/http/client-marks.ts), on both paths', () => {
  const marks = (text: string, codec: ConstructorParameters<typeof RequestParser>[0]): number => {
    const p = new RequestParser(codec);
    const bytes = enc(text);
    p.feed(bytes, 0, bytes.length);
    return p.clientMarks;
  };
  it('marks a browser by its User-Agent or Referer, and the proof header by X-Requested-With', () => {
    const cases: [string, number][] = [
      ['User-Agent: curl/7.88.1', 0], ['User-Agent: python-requests/2.28.1', 0], ['Accept: */*', 0],
      ['User-Agent: Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0.0.0', 1], ['user-agent:Mozilla/5.0', 1], ['User-Agent: mozilla/5.0', 0],
      ['Referer: http://wiki.example/', 1], ['Sec-Fetch-Mode: cors', 0], ['Sec-Fetch-Dest: image', 0],
      ['X-Requested-With: brainstem-console', 2], ['X-Requested-With: ', 0],
      ['User-Agent: Mozilla/5.0\r\nX-Requested-With: XMLHttpRequest', 3],
    ];
    for (const [fields, want] of cases) {
      const text = `GET /x HTTP/1.1\r\nHost: h\r\n${fields}\r\n\r\n`;
      for (const codec of [null, undefined, nodeTextCodec]) assert.equal(marks(text, codec), want, `${fields} (${codec === null ? 'byte path' : 'whole head'})`);
    }
  });
});

describe('the whole-head fast path agrees with the byte path', () => {
  it('on the smuggling corpus', () => {
    for (const [, text] of SMUGGLING_CASES) sameBothWays(text);
  });

  it('on hand-picked heads (fields, limits, forms handed back)', () => {
    for (const text of HEADS) sameBothWays(text);
  });

  it('on generated heads', () => {
    const piece = fc.constantFrom(
      'Host: h', 'Host: 10.0.0.1:80', 'Host: [::1]', 'host:x', 'Content-Length: 5', 'Content-Length: 05', 'Content-Length: x',
      'Transfer-Encoding: chunked', 'Connection: close', 'Connection: a,close', 'Expect: 100-continue', 'Origin: null',
      'X-Y: z', 'X:', 'X :y', ' X: y', 'X: a\tb', 'X: \x01', 'Sec-Fetch-Site: same-site', 'Authorization: Bearer a',
      'User-Agent: Mozilla/5.0', 'User-Agent: curl/8', 'Referer: http://a/', 'Sec-Fetch-Dest: image', 'X-Requested-With: x',
    );
    const line = fc.constantFrom('GET /a HTTP/1.1', 'PUT /b?c=d HTTP/1.1', 'HEAD / HTTP/1.0', 'GET  / HTTP/1.1', 'G@T / HTTP/1.1', 'GET /a HTTP/1.1 ');
    const eol = fc.constantFrom('\r\n', '\r\n', '\r\n', '\n', '\r');
    fc.assert(fc.property(line, fc.array(fc.tuple(piece, eol), { maxLength: 6 }), fc.constantFrom('', 'abcde', '0\r\n\r\n'),
      (l, fields, body) => {
        sameBothWays(l + '\r\n' + fields.map(([f, e]) => f + e).join('') + '\r\n' + body);
      }), { numRuns: 2000 });
  });
});
