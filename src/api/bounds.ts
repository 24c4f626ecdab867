// The integer bounds of a settable operation as a client reads them (DECISIONS.md §Limits as a client
// reads them): the type, the range column and the module's own limits (OpLimits) together. The
// description publishes publishedBounds(); a PUT is checked by checkBounds() against the same three
// sources, and a refusal names the published bounds in the one message form of hal/kit/limits.ts.

import { outOfBounds } from '../../hal/kit/limits';
import type { OpLimits } from '../../hal/types';
import type { Route } from './routes';
import { deepFreeze } from '../util/freeze';

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
 * only some integers (those inside the type and the range column). Made when the description is sent
 * and when a value is refused, never on the path of an accepted PUT.
 */
export function publishedBounds(r: Route, own: OpLimits | null | undefined): OpLimits {
  const t = intType(r.type);
  let lo = t.min;
  let hi = t.max;
  if (r.min <= r.max) {
    lo = Math.max(lo, r.min);
    hi = Math.min(hi, r.max);
  }
  if (own && own.values) return { values: own.values.filter((v) => v >= lo && v <= hi) };
  if (own && own.min !== undefined) lo = Math.max(lo, own.min);
  if (own && own.max !== undefined) hi = Math.min(hi, own.max);
  return { min: lo, max: hi };
}

/**
 * `v` when it lies inside the published bounds of `r`; else 400 aErrRange naming them. `shown` is the
 * value as the client sent it ("0x1FF", 300).
 */
export function checkBounds(r: Route, own: OpLimits | null | undefined, v: number, what: string, shown: unknown): number {
  const t = intType(r.type);
  let ok = v >= t.min && v <= t.max && (r.min > r.max || (v >= r.min && v <= r.max));
  if (ok && own && !own.readOnly) {
    ok = own.values ? own.values.indexOf(v) >= 0 : (own.min === undefined || v >= own.min) && (own.max === undefined || v <= own.max);
  }
  if (!ok) throw outOfBounds(what, typeof shown === 'string' ? shown : String(v), publishedBounds(r, own));
  return v === 0 ? 0 : v; // no -0
}
