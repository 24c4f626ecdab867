// The API's own resources beside the devices (docs/api.md §What a module has and accepts): GET /api/v1 (an index of
// links) and GET /api/v1/openapi.json (the generated document, stored gzip-compressed). Device-side
// code: the index is a constant and the document is bytes the caller maps from flash.

import { ApiError, aErrUnimplemented } from '../../../hal/kit/errors';
import type { HttpResponse } from '../../http/request';

export const INDEX_PATH = '/api/v1';
export const OPENAPI_PATH = '/api/v1/openapi.json';

/** The links of GET /api/v1 (the `response` of its envelope). */
export const INDEX_RESPONSE = '{"links":{"devices":"/api/v1/device","openapi":"/api/v1/openapi.json",' +
  '"events":"/api/v1/device/{serial}/events","console":"/"}}';

export interface OpenApiSource {
  /** The document gzip-compressed: on a module, a resource mapped from flash (never copied to RAM). */
  readonly gzip: Uint8Array;
  /** The document uncompressed, for clients that refuse gzip; a module leaves it out (406 then). */
  readonly plain?: () => Uint8Array;
}

/**
 * Does Accept-Encoding allow gzip? No header: any coding is acceptable (RFC 9110 §12.5.3). Otherwise
 * `gzip` or `*` must be listed without q=0.
 */
export function acceptsGzip(header: string): boolean {
  if (header === '') return true;
  let gzip = -1;
  let star = -1;
  for (const item of header.toLowerCase().split(',')) {
    const semi = item.indexOf(';');
    const coding = (semi < 0 ? item : item.slice(0, semi)).trim();
    let q = 1;
    if (semi >= 0) {
      const m = item.slice(semi + 1).trim();
      if (m.slice(0, 2) === 'q=') q = Number(m.slice(2));
    }
    if (coding === 'gzip' || coding === 'x-gzip') gzip = q > 0 ? 1 : 0;
    else if (coding === '*') star = q > 0 ? 1 : 0;
  }
  return gzip === 1 || (gzip < 0 && star === 1);
}

/** Fill `res` with the document, compressed when the client accepts it. */
export function answerOpenApi(source: OpenApiSource, acceptEncoding: string, res: HttpResponse): void {
  res.contentType = 'application/json';
  if (acceptsGzip(acceptEncoding)) {
    res.bytes = source.gzip;
    res.extraHeaders += 'Content-Encoding: gzip\r\nVary: Accept-Encoding\r\n';
    return;
  }
  if (!source.plain) {
    throw new ApiError(aErrUnimplemented, 'this module serves the OpenAPI document gzip-compressed only; send Accept-Encoding: gzip', 406);
  }
  res.bytes = source.plain();
  res.extraHeaders += 'Vary: Accept-Encoding\r\n';
}
