// The integer bounds of a settable operation as a client reads them (docs/limits.md): the type, the
// range column and the module's own limits (OpLimits) together. The
// description publishes publishedBounds(); a PUT is checked against the same three sources (the type
// and the range column by the API core, the module's limits by the HAL), and every refusal names the
// published bounds in the one message form of hal/kit/value-limits.ts.

import { outOfBounds } from '../../../hal/kit/value-limits';
import type { ApiError } from '../../../hal/kit/errors';
import type { EntityHal, OpLimits } from '../../../hal/types';
import type { Route } from '../route/routes';
import { deepFreeze } from '../../../util/freeze';

export interface IntType {
  readonly bits: number;
  readonly signed: boolean;
  /** The type's range, in the table: not recomputed for every PUT. */
  readonly min: number;
  readonly max: number;
}

const INT_TYPES: { readonly [name: string]: IntType } = deepFreeze({
  u8: { bits: 8, signed: false, min: 0, max: 255 }, i8: { bits: 8, signed: true, min: -128, max: 127 },
  u16: { bits: 16, signed: false, min: 0, max: 65535 }, i16: { bits: 16, signed: true, min: -32768, max: 32767 },
  u32: { bits: 32, signed: false, min: 0, max: 4294967295 }, i32: { bits: 32, signed: true, min: -2147483648, max: 2147483647 },
});

/** The integer type of a route's `type` column (an L32 list's entries, and anything unknown, are u32). */
export function intType(type: string): IntType {
  return INT_TYPES[type] ?? INT_TYPES.u32;
}

/** Does a PUT of this route take integers (I8/I16/I32, or L32 entries)? */
export function takesIntegers(r: Route): boolean {
  return r.put === 'I8' || r.put === 'I16' || r.put === 'I32' || r.put === 'L32';
}

/**
 * What the description publishes for an integer PUT: {min, max}, or {values} when the module accepts
 * only some integers (those inside the type and the range column: the module's own limits, not a copy,
 * when all of its values are). Made when the description is sent and when a value is refused, never on
 * the path of an accepted PUT.
 */
export function publishedBounds(r: Route, own: OpLimits | null | undefined): OpLimits {
  const t = intType(r.type);
  let lo = t.min;
  let hi = t.max;
  if (r.min <= r.max) {
    lo = Math.max(lo, r.min);
    hi = Math.min(hi, r.max);
  }
  if (own && own.values) return allWithin(own.values, lo, hi) ? own : { values: own.values.filter((v) => v >= lo && v <= hi) };
  if (own && own.min !== undefined) lo = Math.max(lo, own.min);
  if (own && own.max !== undefined) hi = Math.min(hi, own.max);
  return { min: lo, max: hi };
}

/** Every value of `values` is in lo..hi: the module's own list is published as it is, not copied. */
function allWithin(values: readonly number[], lo: number, hi: number): boolean {
  for (let i = 0; i < values.length; i++) if (values[i] < lo || values[i] > hi) return false;
  return true;
}

/**
 * The refusal of `v`, outside the type `t` or the range column of `r` (the caller checks, inline: on
 * the path of an accepted PUT there is no call): 400 aErrRange naming the bounds the description
 * publishes, the module's limits read only now, from `hal`. Inside them, the HAL's own check
 * (hal/kit/value-limits.ts) applies the module's limits with the same message form. `shown` is the value
 * as the client sent it ("0x1FF", 300).
 */
export function outOfRoute(r: Route, hal: EntityHal | null | undefined, v: number, what: string, shown: unknown): ApiError {
  const own = hal && hal.limits ? hal.limits(r.op) : null;
  return outOfBounds(what, typeof shown === 'string' ? shown : String(v), publishedBounds(r, own));
}
