// GET / : the web console (web/, built by tools/build-console.mjs into console-page.ts). The page is kept
// gzip-compressed as a base64 string constant (in flash once preloaded); an answer decodes it into one
// byte array of the compressed size (~7 KB), held only until the transport has sent it. A module does
// not decode: the same bytes are a Moddable resource (resources/console.html.gz) mapped from flash and
// handed in (`page`), since 7 KB of chunks at once is too much of a 32 KB heap. ETag with
// If-None-Match revalidation (304, nothing decoded). A client that takes gzip gets it as is, with
// Content-Encoding: gzip. One that does not: the simulator inflates it (the `gunzip` the Api was given,
// node:zlib); a module has no inflater and sends gzip anyway — every browser takes it, and a request
// without Accept-Encoding accepts any coding (RFC 9110 §12.5.3).

import { ApiError, aErrInvalidOption } from '../../hal/kit/errors';
import type { HttpRequest, HttpResponse } from '../http/request';
import { CONSOLE_ETAG, CONSOLE_GZIP_BASE64 } from './console-page';
import type { TextCodec } from '../util/text';

/** The identity (inflated) form has its own ETag: a strong validator names one representation. */
const IDENTITY_ETAG = CONSOLE_ETAG.slice(0, -1) + '-i"';

/** The 6-bit value of each byte as a base64 character, -1 for any other byte (frozen: flash). */
const SEXTETS: readonly number[] = Object.freeze(((): number[] => {
  const table: number[] = [];
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let c = 0; c < 256; c++) table.push(alphabet.indexOf(String.fromCharCode(c)));
  return table;
})());

/** Characters of the base64 text turned into bytes at a time (a multiple of 4). */
const SLICE = 1024;

/**
 * Standard base64 (with = padding) to bytes: one output array, the text taken SLICE characters at a
 * time through the engine's native UTF-8 encoder, then four characters to three bytes. Not charCodeAt
 * over the whole text: XS keeps strings as UTF-8 and finds the i-th character by walking from the
 * start, so that loop would be quadratic.
 */
export function decodeBase64(text: string, codec: TextCodec): Uint8Array {
  let n = text.length;
  while (n > 0 && text.charCodeAt(n - 1) === 61) n--;
  if (n % 4 === 1) throw new Error('base64: truncated');
  const out = new Uint8Array((n * 3) >> 2);
  const T = SEXTETS;
  let o = 0;
  for (let start = 0; start < n; start += SLICE) {
    const c = codec.encode(text.slice(start, start + SLICE < n ? start + SLICE : n));
    const len = c.length;
    let i = 0;
    for (; i + 3 < len; i += 4) {
      const a = T[c[i]], b = T[c[i + 1]], d = T[c[i + 2]], e = T[c[i + 3]];
      if ((a | b | d | e) < 0) throw new Error('base64: bad character near ' + (start + i));
      out[o++] = (a << 2) | (b >> 4);
      out[o++] = ((b & 15) << 4) | (d >> 2);
      out[o++] = ((d & 3) << 6) | e;
    }
    if (i < len) { // the last 2 or 3 characters (their padding stripped)
      const a = T[c[i]], b = T[c[i + 1]], d = i + 2 < len ? T[c[i + 2]] : 0;
      if ((a | b | d) < 0) throw new Error('base64: bad character near ' + (start + i));
      out[o++] = (a << 2) | (b >> 4);
      if (i + 2 < len) out[o++] = ((b & 15) << 4) | (d >> 2);
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

/** Fill `res` with the console page (GET, HEAD), a 304, or throw 405; `page`: its gzip bytes, if mapped. */
export function serveConsole(req: HttpRequest, res: HttpResponse, gunzip: ((bytes: Uint8Array) => Uint8Array) | null, codec: TextCodec,
  page: Uint8Array | null = null): void {
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
  const gz = page ?? decodeBase64(CONSOLE_GZIP_BASE64, codec);
  if (inflate) {
    res.bytes = gunzip!(gz);
  } else {
    res.bytes = gz;
    res.extraHeaders += 'Content-Encoding: gzip\r\n';
  }
}
