// A PUT body (DECISIONS.md §Requests): read as JSON whatever the Content-Type, one object with a
// `value` member. Faults are returned as ApiError values: the body is parsed before the path is
// matched (request.parameters echoes it on every answer), and its fault is reported only later.

import { ApiError, aErrParam, aErrParse } from '../../hal/kit/errors';

/** A PUT body as JSON: the object, or the error it earns. */
export function parseJson(text: string): object | ApiError {
  if (text.length === 0) return new ApiError(aErrParam, 'a PUT needs a body {"value": ...}');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new ApiError(aErrParse, 'the body is not valid JSON; send {"value": ...}');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return new ApiError(aErrParam, 'the body must be a JSON object {"value": ...}');
  }
  return body;
}

/** The body of a PUT that sets a value: one JSON object with a `value` member, or the error. */
export function bodyValue(body: object | ApiError | null): { value: unknown } | ApiError {
  if (body instanceof ApiError) return body;
  if (body === null || !('value' in body)) return new ApiError(aErrParam, 'the body has no "value" member');
  return body as { value: unknown };
}
