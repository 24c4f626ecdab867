// Property-based fuzzing of the HTTP core (fast-check). `make test` runs a bounded number of cases;
// `make fuzz` runs many more (FUZZ_RUNS). Properties:
//  1. any split of a stream of valid requests gives the same answers as the whole stream;
//  2. random and mutated byte streams never throw out of the core, and the connection always ends
//     in answers, a close, or (for a head still arriving) a 408 once the header timeout passes;
//  3. request buffers stay within the limits while a request arrives and drop back to at most
//     512 bytes once it is answered.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { Connection } from '../src/http/connection';
import { simApi, SERIAL } from './helpers';
import { createSimModule } from '../hal/sim/index';
import { allRoutes } from '../src/api/route/routes';

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const enc = new TextEncoder();
const dec = new TextDecoder();
const routes = allRoutes().filter((r) => r.entity !== 'system' || (r.op !== 'reset' && r.op !== 'resetdevicetofactorydefaults'));

interface Run { out: string; closed: boolean; threw: unknown; connection: Connection }

function run(pieces: Uint8Array[], clock: { now: number }): Run {
  const result: Run = { out: '', closed: false, threw: null, connection: null as unknown as Connection };
  // The simulated module runs on a fixed clock so that two runs of one stream answer alike.
  const device = createSimModule({ serialNumber: SERIAL, now: () => 1767225600000 });
  const connection = new Connection(simApi(undefined, [device]), {
    write: (b) => { result.out += dec.decode(b); },
    close: () => { result.closed = true; },
  }, { now: () => clock.now });
  result.connection = connection;
  try {
    for (const p of pieces) connection.receive(p);
  } catch (e) {
    result.threw = e;
  }
  return result;
}

function splitAt(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let last = 0;
  for (const p of points) {
    out.push(bytes.subarray(last, p));
    last = p;
  }
  out.push(bytes.subarray(last));
  return out;
}

const norm = (s: string): string => s.replace(/"timestamp":"[^"]*"/g, '');

/** One valid request: any route, GET or PUT, Content-Length or chunked body, extra headers. */
const validRequest = fc.record({
  route: fc.integer({ min: 0, max: routes.length - 1 }),
  method: fc.constantFrom('GET', 'PUT', 'HEAD', 'OPTIONS'),
  value: fc.oneof(fc.integer({ min: -5, max: 300 }), fc.boolean(), fc.constant('0x10'), fc.string({ maxLength: 8 })),
  chunked: fc.boolean(),
  chunkSize: fc.integer({ min: 1, max: 7 }),
  extra: fc.array(fc.tuple(fc.constantFrom('X-A', 'Accept', 'User-Agent', 'X-Trace'), fc.stringMatching(/^[ -~]{0,20}$/)), { maxLength: 4 }),
}).map(({ route, method, value, chunked, chunkSize, extra }) => {
  const r = routes[route];
  const path = `/api/v1/device/${r.entity}/0/${r.op}` + r.params.map((p) => '/' + Math.max(p.min, 0)).join('');
  let head = `${method} ${path} HTTP/1.1\r\nHost: localhost\r\n`;
  for (const [k, v] of extra) head += `${k}: ${v.trim()}\r\n`;
  if (method !== 'PUT') return head + '\r\n';
  const body = JSON.stringify({ value });
  if (!chunked) return head + `Content-Length: ${enc.encode(body).length}\r\n\r\n${body}`;
  let text = head + 'Transfer-Encoding: chunked\r\n\r\n';
  const bytes = enc.encode(body);
  for (let i = 0; i < bytes.length; i += chunkSize) {
    const part = bytes.subarray(i, i + chunkSize);
    text += part.length.toString(16) + '\r\n' + dec.decode(part) + '\r\n';
  }
  return text + '0\r\n\r\n';
});

describe('fuzz: HTTP core properties', function () {
  this.timeout(120000);

  it('any split of a pipelined stream of valid requests answers the same as the whole stream', () => {
    fc.assert(fc.property(fc.array(validRequest, { minLength: 1, maxLength: 4 }), fc.array(fc.nat(), { maxLength: 12 }), (reqs, cuts) => {
      const bytes = enc.encode(reqs.join(''));
      const whole = run([bytes], { now: 0 });
      const split = run(splitAt(bytes, cuts), { now: 0 });
      assert.equal(whole.threw, null);
      assert.equal(split.threw, null);
      assert.equal(norm(split.out), norm(whole.out));
      assert.equal(split.closed, whole.closed);
      // every request got exactly one answer
      assert.equal((whole.out.match(/HTTP\/1\.1 \d{3} /g) ?? []).length, reqs.length);
    }), { numRuns: RUNS });
  });

  function assertEndsWell(pieces: Uint8Array[]): void {
    const clock = { now: 0 };
    const r = run(pieces, clock);
    assert.equal(r.threw, null, String(r.threw));
    clock.now += 10001;
    const cut = r.connection.checkTimeout();
    // A head that was still arriving is cut off with a 408 and a close.
    if (cut) assert.match(r.out, /HTTP\/1\.1 408 [^]*$/);
    for (const status of r.out.match(/HTTP\/1\.1 (\d{3}) /g) ?? []) {
      assert.match(status, /HTTP\/1\.1 (100|200|204|400|403|404|405|408|409|413|414|431|500|501|503|505) /);
    }
    assert.doesNotMatch(r.out, /HTTP\/1\.1 500 /, 'no internal errors');
  }

  it('random byte streams never throw and end in answers, a close or a 408', () => {
    fc.assert(fc.property(fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 6 }), (pieces) => {
      assertEndsWell(pieces);
    }), { numRuns: RUNS * 2 });
  });

  it('mutated valid requests never throw and end in answers, a close or a 408', () => {
    const mutation = fc.record({ at: fc.nat(), kind: fc.integer({ min: 0, max: 3 }), byte: fc.integer({ min: 0, max: 255 }) });
    fc.assert(fc.property(fc.array(validRequest, { minLength: 1, maxLength: 3 }), fc.array(mutation, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 6 }), (reqs, mutations, cuts) => {
      const bytes = Array.from(enc.encode(reqs.join('')));
      for (const m of mutations) {
        const at = m.at % (bytes.length + 1);
        if (m.kind === 0) bytes.splice(at, 0, m.byte);
        else if (m.kind === 1) bytes.splice(at, 1);
        else if (m.kind === 2) bytes[at % bytes.length] = m.byte;
        else bytes.splice(at, 0, ...bytes.slice(at, at + 20)); // duplicate a run
      }
      assertEndsWell(splitAt(Uint8Array.from(bytes), cuts));
    }), { numRuns: RUNS * 2 });
  });

  it('buffers stay within the limits, and at most 512 bytes between requests', () => {
    fc.assert(fc.property(fc.array(validRequest, { minLength: 1, maxLength: 4 }), fc.array(fc.nat(), { maxLength: 12 }), fc.nat({ max: 4000 }), (reqs, cuts, pad) => {
      // A padding header makes some heads grow their buffer past the idle size.
      const stream = reqs.map((q, i) => (i === 0 ? q.replace('\r\n', `\r\nX-Pad: ${'p'.repeat(pad)}\r\n`) : q)).join('');
      const r = run([], { now: 0 });
      let most = 0;
      for (const piece of splitAt(enc.encode(stream), cuts)) {
        r.connection.receive(piece);
        most = Math.max(most, r.connection.bytesHeld);
      }
      assert.ok(most <= 1024 + 2 + 4096 + 4096, `held ${most}`);
      if (!r.closed) assert.ok(r.connection.bytesHeld <= 512, `idle holds ${r.connection.bytesHeld}`);
    }), { numRuns: RUNS });
  });

  it('a head arriving forever is cut off by 431, 414 or 408, never buffered without bound', () => {
    const clock = { now: 0 };
    const r = run([enc.encode('GET /')], clock);
    for (let i = 0; i < 100 && !r.closed; i++) r.connection.receive(enc.encode('a'.repeat(100)));
    assert.equal(r.closed, true);
    assert.match(r.out, /^HTTP\/1\.1 414 /);
    const h = run([enc.encode('GET / HTTP/1.1\r\nHost: localhost\r\n')], clock);
    for (let i = 0; i < 100 && !h.closed; i++) h.connection.receive(enc.encode('X-Pad: ' + 'b'.repeat(90) + '\r\n'));
    assert.equal(h.closed, true);
    assert.match(h.out, /^HTTP\/1\.1 431 /);
  });
});
