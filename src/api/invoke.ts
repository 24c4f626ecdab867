// The HAL call of one operation, once the handler's checks have passed: a read, a set and its
// read-back, an action, or raw bytes either way. HAL and value-decoding faults are thrown by those
// modules and caught once, by Api.handle; a fault of the body is returned.

import { ApiError } from '../../hal/kit/errors';
import { bodyValue } from './values/request-body';
import { decodeValue } from './values/value-decode';
import { formatValue } from './values/value-format';
import type { Route } from './route/routes';
import type { Target } from './route/resolve';
import type { HttpRequest, HttpResponse } from '../http/request';
import type { TextCodec } from '../../util/text';

/**
 * Run `route` on `t`: the envelope's `response` JSON text, '' when the answer is bytes (set on
 * `res`), or the body's ApiError. `body` is the PUT body parsed once by the handler.
 */
export function invoke(req: HttpRequest, route: Route, t: Target, params: readonly number[],
  body: object | ApiError | null, codec: TextCodec, res: HttpResponse): string | ApiError {
  const hal = t.hal!;
  const op = t.address.op;
  if (req.method === 'PUT') {
    // A raw body, copied: the parser's buffer is reused by the next request.
    if (route.put === 'BYTES') {
      hal.set(t.index, op, params, req.body().slice());
      return '{}';
    }
    const request = bodyValue(body);
    if (request instanceof ApiError) return request;
    hal.set(t.index, op, params, decodeValue(route, request.value, codec, hal));
    const readBack = route.putEmpty ? null : t.address.forms!.head;
    return readBack ? formatValue(readBack, hal.get(t.index, op, params), codec) : '{}';
  }
  if (route.get === 'bytes') {
    res.contentType = 'application/octet-stream';
    res.bytes = hal.get(t.index, op, params) as Uint8Array;
    return '';
  }
  if (route.get === 'none') {
    hal.run(t.index, op, params);
    return '{}';
  }
  return formatValue(route, hal.get(t.index, op, params), codec);
}
