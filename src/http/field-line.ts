// One field line of a request head (RFC 9112 §5): its syntax, the framing fields (Content-Length,
// Transfer-Encoding, Host, Connection, Expect) gathered in a HeadFraming, and the few values the
// server acts on copied out as strings.

import { ascii } from '../../util/text';
import { BODY_MAX } from './http-limits';
import { isTchar, transferCodingsStatus } from './syntax';
import { patterns } from './patterns';
import { clientMark } from './client-marks';

const SP = 32;
const HT = 9;
const COLON = 58;

/** The header values kept for the handler, and where an error's message goes. */
export interface HeadFields {
  host: string;
  origin: string;
  secFetchSite: string;
  authorization: string;
  acceptEncoding: string;
  ifNoneMatch: string;
  accessControlRequestMethod: string;
  contentDigest: string;
  /** What the fields say of the sender (client-marks.ts), bits or'ed together. */
  clientMarks: number;
  errorMessage: string;
}

/** What the fields say about framing, gathered while the head is parsed. */
export class HeadFraming {
  contentLength = -1;
  chunked = false;
  hosts = 0;
  connectionClose = false;
  expectContinue = false;

  reset(): void {
    this.contentLength = -1;
    this.chunked = false;
    this.hosts = 0;
    this.connectionClose = false;
    this.expectContinue = false;
  }
}
Object.freeze(HeadFraming.prototype);

function failure(out: { errorMessage: string }, status: number, message: string): number {
  out.errorMessage = message;
  return status;
}

/**
 * A bit per name length of the fields takeField() acts on: host 4, origin and expect 6, referer 7,
 * connection and user-agent 10, authorization and if-none-match 13, content-length, content-digest and
 * sec-fetch-site 14, accept-encoding 15, x-requested-with 16, transfer-encoding 17,
 * access-control-request-method 29. A field of another name length is skipped without its name being
 * made into a string (Accept, Content-Type...).
 */
export const ACTED_ON_LENGTHS = (1 << 4) | (1 << 6) | (1 << 7) | (1 << 10) | (1 << 13) | (1 << 14) | (1 << 15) | (1 << 16) |
  (1 << 17) | (1 << 29);


/**
 * One field, its name in lower case and its value without surrounding SP and HT: the one reader of
 * the fields the server acts on, for both paths of the parser (here the byte path, whole-head.ts the
 * fast path). 0 when taken (or not one the server acts on), else the status to answer, with its
 * message in out.errorMessage.
 */
export function takeField(name: string, value: string, out: HeadFields, framing: HeadFraming): number {
  switch (name) {
    case 'host':
      if (++framing.hosts > 1) return failure(out, 400, 'more than one Host');
      if (!patterns().host.test(value)) return failure(out, 400, 'malformed Host');
      out.host = value;
      return 0;
    case 'content-length': {
      if (framing.contentLength >= 0) return failure(out, 400, 'more than one Content-Length');
      const n = decimal(value);
      if (n < 0) return failure(out, 400, 'malformed Content-Length');
      framing.contentLength = n;
      return 0;
    }
    case 'transfer-encoding': {
      const status = transferCodingsStatus(value, framing.chunked);
      if (status) return failure(out, status, status === 501 ? 'unknown transfer coding' : 'only the chunked transfer coding is accepted');
      framing.chunked = true;
      return 0;
    }
    case 'connection':
      // `close` alone (what most clients send) needs no pattern.
      if (value === 'close' || patterns().close.test(value)) framing.connectionClose = true;
      return 0;
    case 'expect':
      if (value.length === 12 && value.toLowerCase() === '100-continue') framing.expectContinue = true;
      return 0;
    case 'origin': out.origin = value; return 0;
    case 'sec-fetch-site': out.secFetchSite = value; return 0;
    case 'authorization': out.authorization = value; return 0;
    case 'accept-encoding': out.acceptEncoding = value; return 0;
    case 'if-none-match': out.ifNoneMatch = value; return 0;
    case 'access-control-request-method': out.accessControlRequestMethod = value; return 0;
    case 'content-digest': out.contentDigest = value; return 0;
  }
  const mark = clientMark(name, value);
  if (mark) out.clientMarks |= mark;
  return 0;
}

/** One field line bytes[p, e) (CRLF excluded): 0 when well-formed, else the status to answer. */
export function parseFieldLine(bytes: Uint8Array, p: number, e: number, out: HeadFields, framing: HeadFraming): number {
  if (bytes[p] === SP || bytes[p] === HT) return failure(out, 400, 'obsolete line folding is not accepted');
  let c = p;
  while (c < e && isTchar(bytes[c])) c++;
  if (c === p || c === e || bytes[c] !== COLON) return failure(out, 400, 'malformed header field name');
  let vs = c + 1;
  while (vs < e && (bytes[vs] === SP || bytes[vs] === HT)) vs++;
  let ve = e;
  while (ve > vs && (bytes[ve - 1] === SP || bytes[ve - 1] === HT)) ve--;
  for (let k = vs; k < ve; k++) {
    const b = bytes[k];
    if ((b < SP && b !== HT) || b === 127) return failure(out, 400, 'control character in a header field value');
  }
  // A value byte over 0x7F becomes the char of that code (Latin-1): no field acted on accepts one.
  const n = c - p;
  return n < 32 && (ACTED_ON_LENGTHS >> n) & 1 ? takeField(ascii(bytes, p, c).toLowerCase(), ascii(bytes, vs, ve), out, framing) : 0;
}

/**
 * A Content-Length value: 1*DIGIT, leading zeros allowed, a huge value held at 1e12 (far over the body
 * limit anyway: 413); -1 when it is empty or not all digits. Its digits are read in place (a regex and
 * Number cost more on Node).
 */
export function decimal(value: string): number {
  if (value.length === 0) return -1;
  let n = 0;
  for (let i = 0; i < value.length; i++) {
    const d = value.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n < 1e12 ? n : 1e12;
}

/** After every field: the checks that need all of them. 0 when they pass, else the status to answer. */
export function checkFraming(f: HeadFraming, minor: number, out: { errorMessage: string }, bodyMax = BODY_MAX): number {
  if (minor === 1 && f.hosts === 0) return failure(out, 400, 'HTTP/1.1 request without Host');
  if (f.chunked && f.contentLength >= 0) return failure(out, 400, 'both Content-Length and Transfer-Encoding');
  if (f.chunked && minor === 0) return failure(out, 400, 'Transfer-Encoding in an HTTP/1.0 request');
  if (f.contentLength > bodyMax) return failure(out, 413, `body longer than ${bodyMax} bytes`);
  return 0;
}
