// The request line (RFC 9112 §3): method SP request-target SP HTTP-version, checked byte by byte
// in the head buffer. A CONNECT is 501 whatever its target: this server is no proxy.

import { ascii } from '../../util/text';
import { isTchar } from './syntax';

const SP = 32;

/** Where the request line's parts go. */
export interface RequestLineFields {
  method: string;
  target: string;
  versionMinor: number;
  errorMessage: string;
}

function failure(out: RequestLineFields, status: number, message: string): number {
  out.errorMessage = message;
  return status;
}

/** Parse bytes[0, end) (CRLF excluded) into `out`: 0 when well-formed, else the status to answer. */
export function parseRequestLine(bytes: Uint8Array, end: number, out: RequestLineFields): number {
  let i = 0;
  while (i < end && isTchar(bytes[i])) i++;
  if (i === 0 || i === end || bytes[i] !== SP) return failure(out, 400, 'malformed request line');
  out.method = ascii(bytes, 0, i);
  const ts = ++i;
  while (i < end && bytes[i] > SP && bytes[i] < 127) i++;
  const te = i;
  if (te === ts || i === end || bytes[i] !== SP) return failure(out, 400, 'malformed request target');
  i++;
  // HTTP-version = "HTTP/" DIGIT "." DIGIT, and nothing after it.
  if (end - i !== 8 || bytes[i] !== 72 || bytes[i + 1] !== 84 || bytes[i + 2] !== 84 || bytes[i + 3] !== 80 ||
    bytes[i + 4] !== 47 || bytes[i + 6] !== 46 || bytes[i + 5] < 48 || bytes[i + 5] > 57 ||
    bytes[i + 7] < 48 || bytes[i + 7] > 57) {
    return failure(out, 400, 'malformed HTTP version');
  }
  const major = bytes[i + 5] - 48;
  const minor = bytes[i + 7] - 48;
  if (major !== 1 || minor > 1) {
    out.versionMinor = 1;
    return failure(out, 505, `HTTP/${major}.${minor} is not supported; use HTTP/1.1 or HTTP/1.0`);
  }
  out.versionMinor = minor;
  if (out.method === 'CONNECT') return failure(out, 501, 'CONNECT is not supported: this server is no proxy');
  return parseTarget(bytes, ts, te, out);
}

/** origin-form, asterisk-form, or absolute-form reduced to its path (RFC 9112 §3.2). */
function parseTarget(bytes: Uint8Array, ts: number, te: number, out: RequestLineFields): number {
  if (bytes[ts] === 47 || (te - ts === 1 && bytes[ts] === 42)) {
    out.target = ascii(bytes, ts, te);
    return 0;
  }
  // absolute-form: scheme "://" authority [path]
  let i = ts;
  while (i < te && bytes[i] !== 58 && bytes[i] !== 47) i++;
  if (i + 2 < te && bytes[i] === 58 && bytes[i + 1] === 47 && bytes[i + 2] === 47) {
    i += 3;
    while (i < te && bytes[i] !== 47 && bytes[i] !== 63) i++;
    out.target = i === te ? '/' : bytes[i] === 63 ? '/' + ascii(bytes, i, te) : ascii(bytes, i, te);
    return 0;
  }
  return failure(out, 400, 'malformed request target');
}
