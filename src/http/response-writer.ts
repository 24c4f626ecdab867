// Serialises an HttpResponse: one status line and header block as a string, the body as UTF-8.

import type { HttpResponse } from './request';
import type { TextCodec } from '../../util/text';
import { deepFreeze } from '../../util/freeze';

export const REASONS: { readonly [status: number]: string } = deepFreeze({
  100: 'Continue', 200: 'OK', 202: 'Accepted', 204: 'No Content', 304: 'Not Modified', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden',
  404: 'Not Found', 405: 'Method Not Allowed', 406: 'Not Acceptable', 408: 'Request Timeout', 409: 'Conflict', 411: 'Length Required', 413: 'Content Too Large',
  414: 'URI Too Long', 429: 'Too Many Requests', 431: 'Request Header Fields Too Large', 500: 'Internal Server Error',
  501: 'Not Implemented', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout', 505: 'HTTP Version Not Supported',
});

/** The interim answer to `Expect: 100-continue`. */
export const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n';

export function reasonPhrase(status: number): string {
  return REASONS[status] ?? 'Unknown';
}

/**
 * The status line: those of the common answers as constants, picked by a switch (on Node a numeric
 * key of a sparse table is a hashed dictionary lookup), the others made.
 */
function statusLine(status: number): string {
  switch (status) {
    case 200: return 'HTTP/1.1 200 OK\r\n';
    case 404: return 'HTTP/1.1 404 Not Found\r\n';
    case 204: return 'HTTP/1.1 204 No Content\r\n';
    case 400: return 'HTTP/1.1 400 Bad Request\r\n';
    case 405: return 'HTTP/1.1 405 Method Not Allowed\r\n';
    case 501: return 'HTTP/1.1 501 Not Implemented\r\n';
  }
  return 'HTTP/1.1 ' + status + ' ' + reasonPhrase(status) + '\r\n';
}

/** The JSON head's fixed part: not concatenated per answer. */
const JSON_LENGTH = 'Content-Type: application/json\r\nContent-Length: ';

/**
 * The status line and header block, blank line included. Content-Length is the body's even when
 * the body is left out (HEAD). A 204 carries no Content-Length (RFC 9110 §8.6), a 304 no body.
 */
export function responseHead(res: HttpResponse, codec: TextCodec): string {
  const bytes = res.bytes;
  const status = res.status;
  let head = statusLine(status);
  // An event stream runs until the connection closes; a finite stream is chunked (HTTP/1.1) or
  // ends with the connection (HTTP/1.0).
  if (res.stream) head += 'Content-Type: ' + res.contentType + (res.chunked ? '\r\nTransfer-Encoding: chunked\r\n' : '\r\n');
  else if (status !== 204 && status !== 304) {
    head += (res.contentType === 'application/json' ? JSON_LENGTH : 'Content-Type: ' + res.contentType + '\r\nContent-Length: ') +
      (res.length >= 0 ? res.length : bytes ? bytes.length : codec.byteLength(res.body)) + '\r\n';
  }
  if (res.allow) head += 'Allow: ' + res.allow + '\r\n';
  if (res.retryAfter > 0) head += 'Retry-After: ' + res.retryAfter + '\r\n';
  if (res.close) return head + res.extraHeaders + 'Connection: close\r\n\r\n';
  return head + res.extraHeaders + '\r\n';
}

/**
 * A response with a text body (not `res.bytes`) as one string, head and body: a transport that
 * takes text (Transport.writeText) encodes it natively in the same call that writes it.
 */
export function responseText(res: HttpResponse, headOnly: boolean, codec: TextCodec): string {
  const head = responseHead(res, codec);
  return headOnly || res.status === 204 || res.status === 304 ? head : head + res.body;
}

/** The response as one byte array (one write, one TCP segment for small answers). */
export function writeResponse(res: HttpResponse, headOnly: boolean, codec: TextCodec): Uint8Array {
  const bytes = res.bytes;
  const head = responseHead(res, codec);
  if (headOnly || res.status === 204 || res.status === 304) return codec.encode(head);
  if (!bytes) return codec.encode(head + res.body);
  const headBytes = codec.encode(head);
  const out = new Uint8Array(headBytes.length + bytes.length);
  out.set(headBytes, 0);
  out.set(bytes, headBytes.length);
  return out;
}
