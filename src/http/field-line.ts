// One field line of a request head (RFC 9112 §5): its syntax, the framing fields (Content-Length,
// Transfer-Encoding, Host, Connection, Expect) gathered in a HeadFraming, and the few values the
// server acts on copied out as strings.

import { ascii } from '../util/text';
import { BODY_MAX } from './limits';
import { equalsLower, hasToken, isHostChar, isTchar, transferEncodingStatus } from './syntax';

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
  const n = c - p;
  if (n === 14 && equalsLower(bytes, p, c, 'content-length')) return readContentLength(bytes, vs, ve, out, framing);
  if (n === 17 && equalsLower(bytes, p, c, 'transfer-encoding')) {
    const status = transferEncodingStatus(bytes, vs, ve, framing.chunked);
    if (status) return failure(out, status, status === 501 ? 'unknown transfer coding' : 'only the chunked transfer coding is accepted');
    framing.chunked = true;
  } else if (n === 4 && equalsLower(bytes, p, c, 'host')) {
    if (++framing.hosts > 1) return failure(out, 400, 'more than one Host');
    for (let k = vs; k < ve; k++) if (!isHostChar(bytes[k])) return failure(out, 400, 'malformed Host');
    out.host = ascii(bytes, vs, ve);
  } else if (n === 10 && equalsLower(bytes, p, c, 'connection')) {
    if (hasToken(bytes, vs, ve, 'close')) framing.connectionClose = true;
  } else if (n === 6 && equalsLower(bytes, p, c, 'expect')) {
    if (equalsLower(bytes, vs, ve, '100-continue')) framing.expectContinue = true;
  } else if (n === 6 && equalsLower(bytes, p, c, 'origin')) {
    out.origin = ascii(bytes, vs, ve);
  } else if (n === 14 && equalsLower(bytes, p, c, 'sec-fetch-site')) {
    out.secFetchSite = ascii(bytes, vs, ve);
  } else if (n === 13 && equalsLower(bytes, p, c, 'authorization')) {
    out.authorization = ascii(bytes, vs, ve);
  } else if (n === 15 && equalsLower(bytes, p, c, 'accept-encoding')) {
    out.acceptEncoding = ascii(bytes, vs, ve);
  } else if (n === 13 && equalsLower(bytes, p, c, 'if-none-match')) {
    out.ifNoneMatch = ascii(bytes, vs, ve);
  } else if (n === 29 && equalsLower(bytes, p, c, 'access-control-request-method')) {
    out.accessControlRequestMethod = ascii(bytes, vs, ve);
  }
  return 0;
}

/** 1*DIGIT; leading zeros allowed. Kept under 1e12 so the number stays exact (far over the limit). */
function readContentLength(bytes: Uint8Array, vs: number, ve: number, out: HeadFields, framing: HeadFraming): number {
  if (framing.contentLength >= 0) return failure(out, 400, 'more than one Content-Length');
  if (vs === ve) return failure(out, 400, 'malformed Content-Length');
  let n = 0;
  for (let k = vs; k < ve; k++) {
    const d = bytes[k] - 48;
    if (d < 0 || d > 9) return failure(out, 400, 'malformed Content-Length');
    if (n < 1e12) n = n * 10 + d;
  }
  framing.contentLength = n;
  return 0;
}

/** After every field: the checks that need all of them. 0 when they pass, else the status to answer. */
export function checkFraming(f: HeadFraming, minor: number, out: { errorMessage: string }): number {
  if (minor === 1 && f.hosts === 0) return failure(out, 400, 'HTTP/1.1 request without Host');
  if (f.chunked && f.contentLength >= 0) return failure(out, 400, 'both Content-Length and Transfer-Encoding');
  if (f.chunked && minor === 0) return failure(out, 400, 'Transfer-Encoding in an HTTP/1.0 request');
  if (f.contentLength > BODY_MAX) return failure(out, 413, `body longer than ${BODY_MAX} bytes`);
  return 0;
}
