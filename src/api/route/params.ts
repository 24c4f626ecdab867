// Extra path parameters (docs/api.md §Addresses): decimal integers in the route table's range, or
// below the module's own bound (channel and slot counts), read from the path's segments.

import { ApiError, aErrParse, aErrRange } from '../../../hal/kit/errors';
import type { Route } from './routes';
import type { Target } from './resolve';
import { deepFreeze } from '../../../util/freeze';

const NO_PARAMS: readonly number[] = deepFreeze<number[]>([]);

/** The values of the path parameters of `t` for `route` (whose count the parser already matched), or the 400 they earn. */
export function checkParams(route: Route, t: Target): readonly number[] | ApiError {
  const n = route.params.length;
  if (n === 0) return NO_PARAMS;
  const a = t.address;
  const out: number[] = [];
  const segments = a.segments; // split out of the path once
  for (let k = 0; k < n; k++) {
    const p = route.params[k];
    const text = segments[a.paramAt + k];
    let v = 0;
    if (text.length > 10) return new ApiError(aErrRange, `${p.name} ${text} is out of range`);
    for (let i = 0; i < text.length; i++) {
      const d = text.charCodeAt(i) - 48;
      if (d < 0 || d > 9) return new ApiError(aErrParse, `${p.name} must be a decimal integer, got '${text}'`);
      v = v * 10 + d;
    }
    const max = p.max >= 0 ? p.max : t.hal!.limit(t.index, p.name) - 1;
    if (v < p.min || v > max) {
      return new ApiError(aErrRange, max < p.min ? `${a.entity} ${t.index} has no ${p.name}` : `${p.name} ${v} is out of range ${p.min}..${max}`);
    }
    out.push(v);
  }
  return out;
}
