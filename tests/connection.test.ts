// Connection core fed raw bytes: keep-alive, pipelining, close rules, 100-continue, timeouts, errors.
import { strict as assert } from 'node:assert';
import { rawExchange, simApi, splitResponses } from './helpers';
import type { Api } from '../src/api/api';

const GET = 'GET /api/v1/device/system/0/serialnumber HTTP/1.1\r\nHost: localhost\r\n\r\n';
const put = (v: number): string => {
  const body = `{"value":${v}}`;
  return `PUT /api/v1/device/system/0/hbinterval HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
};

describe('connection', () => {
  let api: Api;
  beforeEach(() => { api = simApi(); });

  it('keeps the connection open for HTTP/1.1 and answers in order', () => {
    const { out, closed } = rawExchange(api, [GET, GET]);
    assert.equal(closed, false);
    const r = splitResponses(out);
    assert.equal(r.length, 2);
    assert.match(r[0].head, /^HTTP\/1\.1 200 OK\r\n/);
    assert.doesNotMatch(r[0].head, /Connection: close/);
  });

  it('answers 4 pipelined requests sent in one chunk, in order', () => {
    const { out } = rawExchange(api, [put(11) + GET + 'GET /api/v1/device/system/0/hbinterval HTTP/1.1\r\nHost: localhost\r\n\r\n' + GET]);
    const r = splitResponses(out);
    assert.deepEqual(r.map((x) => x.status), [200, 200, 200, 200]);
    assert.equal(JSON.parse(r[0].body).response.value, 11);
    assert.equal(JSON.parse(r[2].body).response.value, 11);
  });

  it('gives the same bytes for a pipelined stream fed byte by byte', () => {
    const stream = put(12) + GET + GET;
    const whole = rawExchange(simApi(), [stream]).out;
    const bytes = new TextEncoder().encode(stream);
    const pieces: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i++) pieces.push(bytes.subarray(i, i + 1));
    const split = rawExchange(simApi(), pieces).out;
    const norm = (s: string): string => s.replace(/"timestamp":"[^"]*"/g, '"timestamp":""');
    assert.equal(norm(split), norm(whole));
  });

  it('closes after the answer on Connection: close and on HTTP/1.0', () => {
    const a = rawExchange(api, ['GET /api/v1/device/system/0/serialnumber HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n' + GET]);
    assert.equal(a.closed, true);
    assert.equal(splitResponses(a.out).length, 1);
    assert.match(a.out, /Connection: close\r\n/);
    const b = rawExchange(api, ['GET /api/v1/device/system/0/serialnumber HTTP/1.0\r\n\r\n']);
    assert.equal(b.closed, true);
    assert.match(b.out, /^HTTP\/1\.1 200 OK/);
  });

  it('answers a framing error and closes, ignoring what follows', () => {
    const a = rawExchange(api, ['GET / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n' + GET]);
    assert.equal(a.closed, true);
    const r = splitResponses(a.out);
    assert.equal(r.length, 1);
    assert.equal(r[0].status, 400);
    assert.equal(JSON.parse(r[0].body).response.error, 'aErrParse');
  });

  it('maps framing errors to statuses and codes: 413 aErrSize, 505 aErrVersion, 501 aErrUnimplemented', () => {
    const cases: [string, number, string][] = [
      ['PUT / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5000\r\n\r\n', 413, 'aErrSize'],
      ['GET / HTTP/3.0\r\nHost: localhost\r\n\r\n', 505, 'aErrVersion'],
      ['PUT / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: br\r\n\r\n', 501, 'aErrUnimplemented'],
      [`GET /${'a'.repeat(2000)} HTTP/1.1\r\n`, 414, 'aErrSize'],
    ];
    for (const [text, status, code] of cases) {
      const a = rawExchange(simApi(), [text]);
      const r = splitResponses(a.out);
      assert.equal(r[0].status, status, text.slice(0, 40));
      assert.equal(JSON.parse(r[0].body).response.error, code);
      assert.equal(a.closed, true);
    }
  });

  it('sends 100 Continue before the body when asked', () => {
    const head = 'PUT /api/v1/device/system/0/hbinterval HTTP/1.1\r\nHost: localhost\r\nExpect: 100-continue\r\nContent-Length: 12\r\n\r\n';
    const a = rawExchange(api, [head]);
    assert.equal(a.out, 'HTTP/1.1 100 Continue\r\n\r\n');
    a.connection.receive(new TextEncoder().encode('{"value":40}'));
    assert.equal(a.closed, false);
    const r = splitResponses(a.out.slice('HTTP/1.1 100 Continue\r\n\r\n'.length));
    assert.equal(JSON.parse(r[0].body).response.value, 40);
  });

  it('answers 408 and closes when the head does not arrive within 10 s of its first byte', () => {
    let now = 1000;
    const a = rawExchange(api, ['GET /api/v1/device/system/0/serialnumber HTTP/1.1\r\nHo'], () => now);
    now += 9999;
    assert.equal(a.connection.checkTimeout(), false);
    now += 1;
    assert.equal(a.connection.checkTimeout(), true);
    assert.equal(a.closed, true);
    const r = splitResponses(a.out);
    assert.equal(r[0].status, 408);
    assert.equal(JSON.parse(r[0].body).response.error, 'aErrTimeout');
  });

  it('closes a keep-alive connection idle between requests for 30 s, without an answer', () => {
    let now = 0;
    const a = rawExchange(api, [GET], () => now);
    const answered = a.out;
    now += 29999;
    assert.equal(a.connection.checkTimeout(), false);
    assert.equal(a.closed, false);
    now += 1;
    assert.equal(a.connection.checkTimeout(), true);
    assert.equal(a.closed, true);
    assert.equal(a.out, answered);
  });

  it('answers OPTIONS * with the methods of the server', () => {
    const a = rawExchange(api, ['OPTIONS * HTTP/1.1\r\nHost: localhost\r\n\r\n']);
    assert.match(a.out, /^HTTP\/1\.1 204 No Content\r\nAllow: GET, HEAD, PUT, OPTIONS\r\n/);
    const b = rawExchange(api, ['GET * HTTP/1.1\r\nHost: localhost\r\n\r\n']);
    assert.match(b.out, /^HTTP\/1\.1 404 /);
  });

  it('answers HEAD with the GET headers and no body', () => {
    const a = rawExchange(api, ['HEAD /api/v1/device/system/0/serialnumber HTTP/1.1\r\nHost: localhost\r\n\r\n' + GET]);
    const headEnd = a.out.indexOf('\r\n\r\n') + 4;
    const first = a.out.slice(0, headEnd);
    assert.match(first, /Content-Length: \d+/);
    assert.match(a.out.slice(headEnd), /^HTTP\/1\.1 200 OK/); // next response follows at once
  });
});
