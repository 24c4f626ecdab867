// GET / : the web console (web/, built by tools/build-console.mjs). The page's gzip bytes are stored once,
// in resources/console.html.gz: on a module a Moddable resource mapped from flash (no RAM copy), in the
// simulator and the tests the file read from disk; the Api is handed them (`page`). console-page.ts
// holds only the page's ETag and sizes, so nothing of the page itself is preloaded into flash a second
// time. Without a page (a build without the resource) GET / is a 404. ETag with If-None-Match
// revalidation (304). A client that takes gzip gets the bytes as is, with Content-Encoding: gzip. One
// that does not: the simulator inflates them (the `gunzip` the Api was given, node:zlib); a module has
// no inflater and sends gzip anyway — every browser takes it, and a request without Accept-Encoding
// accepts any coding (RFC 9110 §12.5.3).

import { ApiError, aErrNotFound } from '../../hal/kit/errors';
import type { HttpRequest, HttpResponse } from '../http/request';
import { CONSOLE_ETAG } from './console-page';

/** The identity (inflated) form has its own ETag: a strong validator names one representation. */
const IDENTITY_ETAG = CONSOLE_ETAG.slice(0, -1) + '-i"';

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

/** Fill `res` with the console page (GET, HEAD: its door, src/api/access/doors.ts, took the rest), a 304, or throw 404 (no `page`). */
export function serveConsole(req: HttpRequest, res: HttpResponse, gunzip: ((bytes: Uint8Array) => Uint8Array) | null,
  page: Uint8Array | null): void {
  if (page === null) throw new ApiError(aErrNotFound, 'this firmware has no web console page (resources/console.html.gz is not linked)', 404);
  const inflate = gunzip !== null && !acceptsGzip(req.acceptEncoding);
  const etag = inflate ? IDENTITY_ETAG : CONSOLE_ETAG;
  res.extraHeaders += 'ETag: ' + etag + '\r\nCache-Control: no-cache\r\nVary: Accept-Encoding\r\n';
  if (matches(req.ifNoneMatch, etag)) {
    res.status = 304;
    return;
  }
  res.contentType = 'text/html; charset=utf-8';
  if (inflate) {
    res.bytes = gunzip!(page);
  } else {
    res.bytes = page;
    res.extraHeaders += 'Content-Encoding: gzip\r\n';
  }
}
