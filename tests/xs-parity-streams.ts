// The request streams the XS parity test feeds both engines (Latin-1 strings of their bytes), how
// they are split into chunks, and how an engine's reply is read back (tests/xs-parity.test.ts).

import type { Route } from '../src/api/route/routes';
import { decodeEvents, latin1Bytes, latin1String, type ScriptEvent, type ScriptOp } from './xs/script-format';

// ---------------------------------------------------------------------------------------------
// Requests

export const CRLF = '\r\n';
export const HOST = 'Host: 192.168.1.50' + CRLF;

export function get(p: string, extra = ''): string {
  return `GET ${p} HTTP/1.1${CRLF}${HOST}${extra}${CRLF}`;
}

/** `body` is UTF-8 encoded; requests are kept as Latin-1 strings of their bytes. */
export function put(p: string, body: string, extra = ''): string {
  const bytes = Buffer.from(body, 'utf8').toString('latin1');
  return `PUT ${p} HTTP/1.1${CRLF}${HOST}Content-Type: application/json${CRLF}Content-Length: ${bytes.length}${CRLF}${extra}${CRLF}${bytes}`;
}

/** `response.value` of the envelope of the last response in `text` (Latin-1 of the UTF-8 bytes). */
export function lastValue(text: string): unknown {
  const start = text.lastIndexOf('HTTP/1.');
  const sep = text.indexOf('\r\n\r\n', start);
  const body = JSON.parse(Buffer.from(text.slice(sep + 4), 'latin1').toString('utf8')) as { response?: { value?: unknown } };
  return body.response?.value;
}

export const P_SERIAL = '/api/v1/device/system/0/serialnumber';
export const P_MAC = '/api/v1/device/ethernet/0/macaddress';
export const P_HB = '/api/v1/device/system/0/hbinterval';
export const P_HB_SERIAL = '/api/v1/device/0x1234ABCD/system/0/hbinterval';

export const CHUNKED_PUT =
  `PUT ${P_HB} HTTP/1.1${CRLF}${HOST}Content-Type: application/json${CRLF}Transfer-Encoding: chunked${CRLF}${CRLF}` +
  `5${CRLF}{"val${CRLF}` +
  `3;ext=1${CRLF}ue"${CRLF}` +
  `4${CRLF}:42}${CRLF}` +
  `0${CRLF}${CRLF}`;

export const PIPELINED_4 = get(P_SERIAL) + get(P_MAC) + put(P_HB, '{"value":20}') + get(P_HB);

/** A long stream mixing everything that keeps a connection open, for the split cases. */
export const MIXED_STREAM =
  PIPELINED_4 +
  get(P_HB_SERIAL) +
  put(P_HB, '{"value":"fast"}') +
  get('/api/v1/device/nosuchentity/0/thing') +
  `HEAD ${P_SERIAL} HTTP/1.1${CRLF}${HOST}${CRLF}` +
  `OPTIONS ${P_HB} HTTP/1.1${CRLF}${HOST}Origin: http://example.test${CRLF}Access-Control-Request-Method: PUT${CRLF}${CRLF}` +
  CHUNKED_PUT +
  get(P_HB, `Connection: close${CRLF}`);

// ---------------------------------------------------------------------------------------------
// Running a script on both engines

export interface Outcome {
  events: ScriptEvent[];
  /** Events as comparable strings, timestamps as written. */
  rawTrace: string[];
  /** Everything written, concatenated, timestamps normalised. */
  text: string;
  closed: boolean;
  /** Events as comparable strings (write boundaries included). */
  trace: string[];
}

const TIMESTAMP = /"timestamp"\s*:\s*"[^"]*"/g;

export function normalise(s: string): string {
  return s.replace(TIMESTAMP, '"timestamp":"<T>"');
}

export function outcome(reply: Uint8Array): Outcome {
  const events = decodeEvents(reply);
  const rawTrace = events.map((e) => (e.type === 'write' ? 'W ' + latin1String(e.bytes) : e.type === 'close' ? 'C' : 'X ' + e.message));
  const trace = rawTrace.map(normalise);
  const text = normalise(events.map((e) => (e.type === 'write' ? latin1String(e.bytes) : '')).join(''));
  return { events, rawTrace, text, closed: events.some((e) => e.type === 'close'), trace };
}

export function chunksOf(stream: string, sizes: Iterable<number>): ScriptOp[] {
  const bytes = latin1Bytes(stream);
  const ops: ScriptOp[] = [];
  let at = 0;
  for (const n of sizes) {
    if (at >= bytes.length) break;
    ops.push({ receive: bytes.slice(at, at + n) });
    at += n;
  }
  if (at < bytes.length) ops.push({ receive: bytes.slice(at) });
  return ops;
}

export function* byteByByte(): Iterable<number> {
  for (;;) yield 1;
}

/** mulberry32: a small seeded PRNG so the random splits are the same on every run. */
export function* randomSizes(seed: number, max: number): Iterable<number> {
  let a = seed >>> 0;
  for (;;) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const r = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    yield 1 + Math.floor(r * max);
  }
}

/** A value a PUT route accepts, from its type and range alone. */
export function walkValue(r: Route): unknown {
  switch (r.put) {
    case 'BOOL': return true;
    case 'L32': return [1, 0];
    case 'L8': return r.type === 'bytes:ipv4' ? (r.list ? '8.8.8.8, 1.1.1.1' : '10.0.0.2') : r.type === 'bytes:text' ? 'walker' : '0x0102';
    case 'STR': return 'walker \u00e9';
    default: return r.min <= r.max ? r.max : 1;
  }
}

/** The body of the last answer in `text`, as UTF-8 (a close-delimited one runs to the end). */
export function lastBody(text: string): string {
  const start = text.lastIndexOf('HTTP/1.');
  return Buffer.from(text.slice(text.indexOf('\r\n\r\n', start) + 4), 'latin1').toString('utf8');
}

export function statusLines(text: string): string[] {
  return text.match(/HTTP\/1\.[01] \d{3}[^\r\n]*/g) ?? [];
}

export function statuses(text: string): number[] {
  return statusLines(text).map((l) => Number(l.split(' ')[1]));
}
