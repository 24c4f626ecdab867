// XS guard rail: the device-side request path (HTTP core + API core + simulated HAL) runs inside a
// real XS engine (@agoric/xsnap's xsnap-worker) and must answer exactly as it does under Node.
// Each case is a script of byte chunks fed to one fresh Connection (tests/xs/script-format.ts);
// the bytes written (write boundaries included) and whether the connection closed must be identical
// on both engines: first with "timestamp" values normalised, then as written (both run on the same
// fixed clock, so a difference left is a Date difference and is reported as such). A few facts
// about the answers are checked too, so that a core broken the same way on both engines still fails.

import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { bundleForXs } from './xs/bundle';
import { XsnapWorker } from './xs/xsnap-worker';
import { runScript, SERIAL_NUMBER } from './xs/xs-entry';
import { allRoutes, type Route } from '../src/api/route/routes';
import { envelope } from '../src/api/values/envelope';
import { createSimModule } from '../hal/sim/index';
import { dechunk, wholeDescription } from './helpers';
import { FLAG_RESET, encodeScript, latin1Bytes, type ScriptOp } from './xs/script-format';
import {
  CRLF, HOST, get, put, lastValue, P_SERIAL, P_MAC, P_HB, P_HB_SERIAL, CHUNKED_PUT, PIPELINED_4, MIXED_STREAM,
  type Outcome, normalise, outcome, chunksOf, byteByByte, randomSizes, walkValue, lastBody, statusLines, statuses,
} from './xs-parity-streams';

// Compiled to build/tests/: the TypeScript sources are two levels up.
const ROOT = path.resolve(__dirname, '../..');

// ---------------------------------------------------------------------------------------------

describe('XS guard rail: request path under XS (xsnap) == under Node', function () {
  this.timeout(30_000);
  let worker: XsnapWorker | undefined;

  before(async function () {
    this.timeout(120_000);
    const code = await bundleForXs(ROOT, 'tests/xs/xs-main.ts');
    worker = new XsnapWorker({ name: 'xs-parity' });
    await worker.start();
    await worker.evaluate(code);
  });

  after(async function () {
    await worker?.close();
    worker = undefined;
  });

  /** Runs `ops` on a fresh Api + Connection under both engines; asserts identical outcomes. */
  async function both(ops: ScriptOp[], flags = FLAG_RESET): Promise<Outcome> {
    const script = encodeScript(flags, ops);
    const node = outcome(runScript(script));
    const xs = outcome((await worker!.command(script)).reply);
    const thrown = [...node.trace, ...xs.trace].filter((t) => t.startsWith('X '));
    assert.deepEqual(xs.trace, node.trace, 'XS (actual) and Node (expected) answered differently');
    assert.deepEqual(thrown, [], 'an exception escaped the connection');
    // Both engines run on the same fixed clock: a difference left here is in Date itself.
    assert.deepEqual(xs.rawTrace, node.rawTrace, 'timestamps differ between XS (actual) and Node (expected)');
    return node;
  }

  const once = (s: string, end = false): ScriptOp[] => (end ? [{ receive: latin1Bytes(s) }, { end: true }] : [{ receive: latin1Bytes(s) }]);

  it('GET int: system/0/serialnumber', async () => {
    const r = await both(once(get(P_SERIAL)));
    assert.deepEqual(statuses(r.text), [200]);
    assert.equal(lastValue(r.text), SERIAL_NUMBER);
    assert.equal(r.closed, false);
  });

  it('GET str: ethernet/0/macaddress', async () => {
    const r = await both(once(get(P_MAC)));
    assert.deepEqual(statuses(r.text), [200]);
    assert.match(String(lastValue(r.text)), /^[0-9a-f]{2}([:-][0-9a-f]{2}){5}$/i);
  });

  it('GET with the serial number in the path', async () => {
    const r = await both(once(get(P_HB_SERIAL)));
    assert.deepEqual(statuses(r.text), [200]);
  });

  it('PUT then GET: system/0/hbinterval = 20', async () => {
    const r = await both(once(put(P_HB, '{"value":20}') + get(P_HB)));
    assert.deepEqual(statuses(r.text), [200, 200]);
    assert.equal(lastValue(r.text), 20);
  });

  it('PUT a bad value answers 400 with an error name', async () => {
    const r = await both(once(put(P_HB, '{"value":"fast"}')));
    assert.deepEqual(statuses(r.text), [400]);
    assert.match(r.text, /"error"\s*:\s*"aErr[A-Za-z]+"/);
    assert.equal(r.closed, false);
  });

  it('another serial number in the path answers 404', async () => {
    const r = await both(once(get('/api/v1/device/0x11111111/system/0/hbinterval')));
    assert.deepEqual(statuses(r.text), [404]);
  });

  it('unknown entity answers 404', async () => {
    const r = await both(once(get('/api/v1/device/nosuchentity/0/thing')));
    assert.deepEqual(statuses(r.text), [404]);
  });

  it('a method the route lacks answers 405', async () => {
    const r = await both(once(`DELETE ${P_HB} HTTP/1.1${CRLF}${HOST}${CRLF}`));
    assert.deepEqual(statuses(r.text), [405]);
    assert.match(r.text, /\r\nAllow: /i);
  });

  it('HEAD answers like GET without a body', async () => {
    const r = await both(once(`HEAD ${P_SERIAL} HTTP/1.1${CRLF}${HOST}${CRLF}`));
    assert.deepEqual(statuses(r.text), [200]);
    assert.ok(r.text.endsWith('\r\n\r\n'), 'HEAD response has no body');
  });

  it('OPTIONS (CORS preflight)', async () => {
    const r = await both(once(`OPTIONS ${P_HB} HTTP/1.1${CRLF}${HOST}Origin: http://example.test${CRLF}Access-Control-Request-Method: PUT${CRLF}${CRLF}`));
    assert.equal(statuses(r.text).length, 1);
    assert.ok([200, 204].includes(statuses(r.text)[0]), statusLines(r.text)[0]);
  });

  it('access control: a foreign Host and cross-site writes are refused; Cache-Control and Date', async () => {
    const foreign = `PUT ${P_HB} HTTP/1.1${CRLF}Host: evil.example:80${CRLF}Content-Length: 12${CRLF}${CRLF}{"value":77}`;
    const r = await both(once(foreign + put(P_HB, '{"value":78}', `Sec-Fetch-Site: cross-site${CRLF}`) +
      put(P_HB, '{"value":79}', `Origin: http://evil.example${CRLF}`) + get(P_HB)));
    assert.deepEqual(statuses(r.text), [403, 403, 403, 200]);
    assert.equal((r.text.match(/"aErrPermission"/g) ?? []).length, 3);
    assert.ok(![77, 78, 79].includes(lastValue(r.text) as number), 'nothing was set');
    assert.equal((r.text.match(/\r\nCache-Control: no-store\r\nDate: \w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT\r\n/g) ?? []).length, 4);
  });

  it('chunked PUT body', async () => {
    const r = await both(once(CHUNKED_PUT + get(P_HB)));
    assert.deepEqual(statuses(r.text), [200, 200]);
    assert.equal(lastValue(r.text), 42);
  });

  it('the device description: chunked, then pipelined answers; HEAD; HTTP/1.0 close-delimited', async () => {
    const P_DESC = '/api/v1/device/0x1234ABCD';
    const r = await both(once(get(P_DESC) + get(P_SERIAL) + `HEAD ${P_DESC} HTTP/1.1${CRLF}${HOST}${CRLF}` +
      `GET ${P_DESC} HTTP/1.0${CRLF}${CRLF}`));
    assert.deepEqual(statuses(r.text), [200, 200, 200, 200]);
    assert.equal(r.closed, true);
    const want = normalise(envelope('', P_DESC, '{}', wholeDescription(createSimModule({ serialNumber: SERIAL_NUMBER }))));
    const bytes = Buffer.concat(r.events.map((e) => (e.type === 'write' ? e.bytes : new Uint8Array(0)))); // as written
    const first = bytes.indexOf('\r\n\r\n') + 4;
    assert.match(bytes.subarray(0, first).toString('latin1'), /\r\nTransfer-Encoding: chunked\r\n/);
    const chunked = dechunk(bytes.subarray(first));
    assert.equal(normalise(Buffer.from(chunked.body).toString('utf8')), want);
    assert.equal(lastBody(r.text), want, 'HTTP/1.0: the same envelope, ended by the close');
    const largest = Math.max(...r.events.map((e) => (e.type === 'write' ? e.bytes.length : 0)));
    assert.ok(largest < 1536, `largest write ${largest}`);
  });

  it('HTTP/1.0 request: answered, then closed', async () => {
    const r = await both(once(`GET ${P_SERIAL} HTTP/1.0${CRLF}${CRLF}`));
    assert.deepEqual(statuses(r.text), [200]);
    assert.equal(r.closed, true);
  });

  it('Connection: close: answered, then closed', async () => {
    const r = await both(once(get(P_SERIAL, `Connection: close${CRLF}`)));
    assert.deepEqual(statuses(r.text), [200]);
    assert.equal(r.closed, true);
    assert.equal(r.events[r.events.length - 1].type, 'close', 'nothing is written after close');
  });

  it('peer end() after a request', async () => {
    const r = await both(once(get(P_SERIAL), true));
    assert.deepEqual(statuses(r.text), [200]);
  });

  it('4 pipelined requests in one chunk give 4 responses in order', async () => {
    const r = await both(once(PIPELINED_4));
    assert.deepEqual(statuses(r.text), [200, 200, 200, 200]);
    assert.match(r.text, new RegExp(`\\b${SERIAL_NUMBER}\\b`));
    assert.equal(lastValue(r.text), 20);
    assert.equal(r.closed, false);
  });

  it('malformed request: 400 and close', async () => {
    const r = await both(once(`GARBAGE${CRLF}${CRLF}`));
    assert.deepEqual(statuses(r.text), [400]);
    assert.equal(r.closed, true);
  });

  it('Expect: 100-continue, body in a second chunk', async () => {
    const req = put(P_HB, '{"value":33}', `Expect: 100-continue${CRLF}`);
    const cut = req.indexOf('\r\n\r\n') + 4;
    const r = await both([{ receive: latin1Bytes(req.slice(0, cut)) }, { receive: latin1Bytes(req.slice(cut)) }]);
    assert.deepEqual(statuses(r.text), [100, 200]);
  });

  it('UTF-8 text: PUT then GET system/0/name', async () => {
    const name = 'Bänk ✓ \u{1F680}';
    const r = await both(once(put('/api/v1/device/system/0/name', JSON.stringify({ value: name })) + get('/api/v1/device/system/0/name')));
    assert.deepEqual(statuses(r.text), [200, 200]);
    assert.equal(lastValue(r.text), name);
  });

  it('bool and list values: system/0/led, system/0/inputpowerbehaviorconfig', async () => {
    const r = await both(once(put('/api/v1/device/system/0/led', '{"value":true}') + get('/api/v1/device/system/0/led') + get('/api/v1/device/system/0/inputpowerbehaviorconfig')));
    assert.deepEqual(statuses(r.text), [200, 200, 200]);
  });

  it('envelope timestamps at the clock entity\'s edge years (Date under XS)', async () => {
    const years = [0, 99, 1969, 1970, 2038, 4095];
    const stream = years.map((y) => put('/api/v1/device/clock/0/year', JSON.stringify({ value: y })) + get(P_SERIAL)).join('');
    const r = await both(once(stream));
    assert.deepEqual(statuses(r.text), years.flatMap(() => [200, 200]));
    const stamps = (r.rawTrace.join('').match(/"timestamp":"[^"]*"/g) ?? []).filter((_, i) => i % 2 === 1);
    assert.deepEqual(stamps.map((t) => t.slice(13, 17)), years.map((y) => String(y).padStart(4, '0')));
  });

  it('limits: 414, 431, 413, 505 (each closes)', async () => {
    const cases: [string, number][] = [
      [`GET /api/v1/device/system/0/${'x'.repeat(1100)} HTTP/1.1${CRLF}${HOST}${CRLF}`, 414],
      [`GET ${P_SERIAL} HTTP/1.1${CRLF}${HOST}${`X-Pad: ${'y'.repeat(100)}${CRLF}`.repeat(45)}${CRLF}`, 431],
      [`PUT ${P_HB} HTTP/1.1${CRLF}${HOST}Content-Length: 5000${CRLF}${CRLF}`, 413],
      [`GET ${P_SERIAL} HTTP/2.0${CRLF}${HOST}${CRLF}`, 505],
    ];
    for (const [req, status] of cases) {
      const r = await both(once(req));
      assert.deepEqual(statuses(r.text), [status], req.slice(0, 60));
      assert.equal(r.closed, true);
    }
  });

  it('route walk: GET every route, PUT every settable one, GET again (one pipelined stream)', async () => {
    // Every value codec and every simulated entity, under both engines. Actions (GET of a `none`
    // route: reset, save, ...) are left out: they may end the connection or reset the module.
    const routes = allRoutes().filter((r) => r.get !== 'none');
    const pathOf = (r: Route): string => `/api/v1/device/${r.entity}/0/${r.op}` + r.params.map((p) => '/' + Math.max(p.min, 0)).join('');
    const gets = routes.filter((r) => r.get !== '-').map((r) => get(pathOf(r)));
    const puts = routes.filter((r) => r.put !== '-').map((r) => put(pathOf(r), JSON.stringify({ value: walkValue(r) })));
    const requests = [...gets, ...puts, ...gets];
    const r = await both(once(requests.join('')));
    const st = statuses(r.text);
    assert.equal(st.length, requests.length, 'one answer per request');
    assert.equal(r.closed, false);
    assert.deepEqual(st.filter((x) => x >= 500 && x !== 501), [], 'no server errors');
    assert.ok(st.filter((x) => x === 200).length > requests.length * 0.8, `mostly 200: ${st.filter((x) => x === 200).length}/${requests.length}`);
  });

  describe('the same stream, split differently', () => {
    let whole: Outcome;

    before(async () => {
      whole = await both(once(MIXED_STREAM));
    });

    it('in one chunk: the expected sequence of answers', () => {
      const st = statuses(whole.text);
      assert.equal(st.length, 11, statusLines(whole.text).join(' | '));
      // GET, GET, PUT, GET, GET by serial, bad PUT, unknown entity, HEAD, OPTIONS, chunked PUT, GET + close
      assert.deepEqual(st.slice(0, 8), [200, 200, 200, 200, 200, 400, 404, 200]);
      assert.ok([200, 204].includes(st[8]), statusLines(whole.text)[8]);
      assert.deepEqual(st.slice(9), [200, 200]);
      assert.equal(lastValue(whole.text), 42);
      assert.equal(whole.closed, true);
    });

    it('byte by byte', async () => {
      const r = await both(chunksOf(MIXED_STREAM, byteByByte()));
      assert.equal(r.text, whole.text);
      assert.equal(r.closed, whole.closed);
    });

    for (const seed of [1, 2, 3, 42, 2024]) {
      it(`random splits (seed ${seed})`, async () => {
        const r = await both(chunksOf(MIXED_STREAM, randomSizes(seed, seed % 2 ? 7 : 40)));
        assert.equal(r.text, whole.text);
        assert.equal(r.closed, whole.closed);
      });
    }

    it('malformed request byte by byte: 400 and close', async () => {
      const r = await both(chunksOf(get(P_SERIAL) + `GARBAGE${CRLF}${CRLF}`, byteByByte()));
      assert.deepEqual(statuses(r.text), [200, 400]);
      assert.equal(r.closed, true);
    });
  });
});
