// GET / : the web console (web/, built by tools/build-console.mjs into console-page.ts). The page is kept
// gzip-compressed as a base64 string constant (in flash once preloaded); an answer decodes it into one
// byte array of the compressed size (~7 KB), held only until the transport has sent it. ETag with
// If-None-Match revalidation (304, nothing decoded). A client that takes gzip gets it as is, with
// Content-Encoding: gzip. One that does not: the simulator inflates it (the `gunzip` the Api was given,
// node:zlib); a module has no inflater and sends gzip anyway — every browser takes it, and a request
// without Accept-Encoding accepts any coding (RFC 9110 §12.5.3).

import { ApiError, aErrInvalidOption } from '../api/errors';
import type { HttpRequest, HttpResponse } from '../http/request';
import { CONSOLE_ETAG, CONSOLE_GZIP_BASE64 } from './console-page';

/** The identity (inflated) form has its own ETag: a strong validator names one representation. */
const IDENTITY_ETAG = CONSOLE_ETAG.slice(0, -1) + '-i"';

/** The 6-bit value of a base64 character, or -1 (padding, anything else). */
function sextet(c: number): number {
  if (c >= 65 && c <= 90) return c - 65;
  if (c >= 97 && c <= 122) return c - 71;
  if (c >= 48 && c <= 57) return c + 4;
  if (c === 43) return 62;
  if (c === 47) return 63;
  return -1;
}

/** Standard base64 (with = padding) to bytes: one allocation, no intermediate strings. */
export function decodeBase64(text: string): Uint8Array {
  let n = text.length;
  while (n > 0 && text.charCodeAt(n - 1) === 61) n--;
  const out = new Uint8Array((n * 3) >> 2);
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < n; i++) {
    const v = sextet(text.charCodeAt(i));
    if (v < 0) throw new Error('base64: bad character at ' + i);
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

/** Accept-Encoding lists gzip (or *) with a non-zero weight. */
export function acceptsGzip(header: string): boolean {
  for (const part of header.split(',')) {
    const semi = part.indexOf(';');
    const name = (semi < 0 ? part : part.slice(0, semi)).trim().toLowerCase();
    if (name !== 'gzip' && name !== 'x-gzip' && name !== '*') continue;
    const q = semi < 0 ? '' : part.slice(semi + 1).replace(/\s/g, '').toLowerCase();
    if (q.lastIndexOf('q=', 0) !== 0 || Number(q.slice(2)) > 0) return true;
  }
  return false;
}

/** If-None-Match names `etag` (weakly compared, RFC 9110 §13.1.2) or is `*`. */
function matches(header: string, etag: string): boolean {
  if (header === '') return false;
  for (const part of header.split(',')) {
    const tag = part.trim();
    if (tag === '*' || tag === etag || tag === 'W/' + etag) return true;
  }
  return false;
}

/** Fill `res` with the console page (GET, HEAD), a 304, or throw 405. */
export function serveConsole(req: HttpRequest, res: HttpResponse, gunzip: ((bytes: Uint8Array) => Uint8Array) | null): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.allow = 'GET, HEAD';
    throw new ApiError(aErrInvalidOption, `${req.method} is not allowed on /; allowed: GET, HEAD`, 405);
  }
  const inflate = gunzip !== null && !acceptsGzip(req.acceptEncoding);
  const etag = inflate ? IDENTITY_ETAG : CONSOLE_ETAG;
  res.extraHeaders += 'ETag: ' + etag + '\r\nCache-Control: no-cache\r\nVary: Accept-Encoding\r\n';
  if (matches(req.ifNoneMatch, etag)) {
    res.status = 304;
    return;
  }
  res.contentType = 'text/html; charset=utf-8';
  const gz = decodeBase64(CONSOLE_GZIP_BASE64);
  if (inflate) {
    res.bytes = gunzip!(gz);
  } else {
    res.bytes = gz;
    res.extraHeaders += 'Content-Encoding: gzip\r\n';
  }
}
