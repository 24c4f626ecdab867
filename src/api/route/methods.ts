// Methods (docs/api.md §Requests and value forms): which the server knows (others: 501), which form of an operation
// a method takes, and the 405 answer with its Allow value (both precomputed with the route table).

import { ApiError, aErrInvalidOption, aErrUnimplemented } from '../../../hal/kit/errors';
import type { Route } from './routes';
import type { Forms } from '../values/forms';
import { deepFreeze } from '../../../util/freeze';

/** Methods this server knows; any other answers 501. */
export const KNOWN_METHODS: readonly string[] = deepFreeze(['GET', 'HEAD', 'PUT', 'OPTIONS', 'POST', 'DELETE', 'PATCH', 'TRACE', 'CONNECT']);

/** Allow of OPTIONS * (the server as a whole), and of the listings, the index and the document. */
export const SERVER_ALLOW = 'GET, HEAD, PUT, OPTIONS';
export const READ_ALLOW = 'GET, HEAD, OPTIONS';

/** 501 for a method this server does not know at all, else null. */
export function unknownMethod(method: string): ApiError | null {
  // GET and PUT first: nearly every request, and no search of the list.
  return method !== 'GET' && method !== 'PUT' && KNOWN_METHODS.indexOf(method) < 0 ? new ApiError(aErrUnimplemented, `method ${method} is not implemented`, 501) : null;
}

/** 405: `method` is known but `what` does not offer it. */
export function notAllowed(method: string, what: string, allow: string): ApiError {
  return new ApiError(aErrInvalidOption, `${method} is not allowed on ${what}; allowed: ${allow}`, 405);
}

/** The form `method` runs (forms.ts made the choice with the table), or null when it is not offered. */
export function pick(forms: Forms, method: string): Route | null {
  return method === 'GET' ? forms.get : method === 'HEAD' ? forms.head : method === 'PUT' ? forms.put : null;
}
