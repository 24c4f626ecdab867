// Serialises an HttpResponse: one status line and header block as a string, the body as UTF-8.

import type { HttpResponse } from './request';
import type { TextCodec } from '../util/text';

const REASONS: { readonly [status: number]: string } = {
  100: 'Continue', 200: 'OK', 204: 'No Content', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden',
  404: 'Not Found', 405: 'Method Not Allowed', 408: 'Request Timeout', 409: 'Conflict', 413: 'Content Too Large',
  414: 'URI Too Long', 431: 'Request Header Fields Too Large', 500: 'Internal Server Error',
  501: 'Not Implemented', 503: 'Service Unavailable', 504: 'Gateway Timeout', 505: 'HTTP Version Not Supported',
};

/** The interim answer to `Expect: 100-continue`. */
export const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n';

export function reasonPhrase(status: number): string {
  return REASONS[status] ?? 'Unknown';
}

/**
 * The response as one byte array (one write, one TCP segment for small answers). `headOnly` (HEAD)
 * keeps the Content-Length of the body it leaves out. A 204 carries no Content-Length (RFC 9110 §8.6).
 */
export function writeResponse(res: HttpResponse, headOnly: boolean, codec: TextCodec): Uint8Array {
  let head = 'HTTP/1.1 ' + res.status + ' ' + reasonPhrase(res.status) + '\r\n';
  // The body is encoded first: its byte count is the Content-Length (one native call, where
  // counting UTF-8 bytes in script costs a step per character).
  const body = res.status === 204 ? null : res.bytes ?? codec.encode(res.body);
  if (body) head += 'Content-Type: ' + res.contentType + '\r\nContent-Length: ' + body.length + '\r\n';
  if (res.allow) head += 'Allow: ' + res.allow + '\r\n';
  head += res.extraHeaders;
  if (res.close) head += 'Connection: close\r\n';
  head += '\r\n';
  const headBytes = codec.encode(head);
  if (headOnly || !body) return headBytes;
  const out = new Uint8Array(headBytes.length + body.length);
  out.set(headBytes, 0);
  out.set(body, headBytes.length);
  return out;
}
