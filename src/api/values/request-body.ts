// A PUT body (docs/api.md §Requests and value forms): read as JSON whatever the Content-Type, one object with a
// `value` member. Faults are returned as ApiError values: the body is parsed before the path is
// matched (request.parameters echoes it on every answer), and its fault is reported only later.

import { ApiError, aErrParam, aErrParse } from '../../../hal/kit/errors';
import { JSON_MAX_DEPTH, JSON_NOT_OBJECT, JSON_TOO_DEEP, readBody } from './json-body';

/** A PUT body as JSON: the object, or the error it earns. */
export function parseJson(text: string): object | ApiError {
  if (text.length === 0) return new ApiError(aErrParam, 'a PUT needs a body {"value": ...}');
  const quick = quickBody(text);
  if (quick !== null) return quick;
  // Read by hand, not by JSON.parse: every member name JSON.parse reads becomes a key for good (json-body.ts).
  const body = readBody(text);
  if (body === JSON_TOO_DEEP) return new ApiError(aErrParse, `the body nests deeper than ${JSON_MAX_DEPTH} levels; send {"value": ...}`);
  if (body === JSON_NOT_OBJECT) return new ApiError(aErrParam, 'the body must be a JSON object {"value": ...}');
  if (typeof body === 'number') return new ApiError(aErrParse, 'the body is not valid JSON; send {"value": ...}');
  return body;
}

/** The body of a PUT that sets a value: one JSON object with a `value` member, or the error. */
export function bodyValue(body: object | ApiError | null): { value: unknown } | ApiError {
  if (body instanceof ApiError) return body;
  if (body === null || !('value' in body)) return new ApiError(aErrParam, 'the body has no "value" member');
  return body as { value: unknown };
}

/**
 * The usual body, `{"value": <integer>}` or `{"value": "<text without escapes>"}` with no other
 * whitespace, read by hand: on Node JSON.parse costs more than the rest of the body's work (under XS
 * a native call costs about ten bytecodes, hence indexOf rather than a walk over the key). null
 * for anything else (a fraction, an escape, another member, a fault...): JSON.parse reads it as before.
 */
function quickBody(text: string): { value: number | string } | null {
  // indexOf, not startsWith: on Node (V8 11) a startsWith costs twice an indexOf; a text that does
  // not start so is searched to its end, natively, before JSON.parse reads it anyway.
  if (text.indexOf('{"value":') !== 0) return null;
  let i = text.charCodeAt(9) === 32 ? 10 : 9;
  const last = text.length - 1;
  let value: number | string;
  let c = text.charCodeAt(i);
  if (c === 34) {
    const start = i + 1;
    if (text.indexOf('"', start) !== last - 1) return null;
    for (i = start; i < last - 1; i++) if ((c = text.charCodeAt(i)) < 32 || c === 92) return null;
    value = text.slice(start, i++);
  } else {
    const negative = c === 45;
    if (negative) c = text.charCodeAt(++i);
    const start = i;
    let v = 0;
    for (; c >= 48 && c <= 57; c = text.charCodeAt(++i)) v = v * 10 + c - 48;
    // No digits, a leading zero or more digits than a double holds exactly: JSON.parse decides.
    if (i === start || i - start > 15 || (i - start > 1 && text.charCodeAt(start) === 48)) return null;
    value = negative ? -v : v;
  }
  return i === last && text.charCodeAt(i) === 125 ? { value } : null;
}
