// Value guards shared by every HAL (simulated and device). The API core has already decoded and
// range-checked each value against the route table; the coercions only catch a caller that hands a
// HAL the wrong JavaScript type (a bug: aErrParam), and the range checks add the limits only the
// module knows (aErrRange).

import { ApiError, aErrParam, aErrRange } from './errors';
import type { HalValue } from '../types';

export function asNumber(v: HalValue, what: string): number {
  if (typeof v !== 'number') throw new ApiError(aErrParam, `${what}: a number is needed`);
  return v;
}

export function asBool(v: HalValue, what: string): boolean {
  if (typeof v === 'boolean') return v;
  if (v === 0 || v === 1) return v === 1;
  throw new ApiError(aErrParam, `${what}: a boolean is needed`);
}

export function asBytes(v: HalValue, what: string): Uint8Array {
  if (v instanceof Uint8Array) return v;
  throw new ApiError(aErrParam, `${what}: bytes are needed`);
}

/** Array.isArray for a HalValue: TypeScript's own does not narrow a readonly array out of a union. */
export function isList(v: HalValue | void): v is readonly number[] {
  return Array.isArray(v);
}

export function asList(v: HalValue, what: string): readonly number[] {
  if (isList(v)) return v;
  throw new ApiError(aErrParam, `${what}: a list is needed`);
}

export function asString(v: HalValue, what: string): string {
  if (typeof v === 'string') return v;
  throw new ApiError(aErrParam, `${what}: a string is needed`);
}

export function rangeError(what: string, value: number, lo: number, hi: number): ApiError {
  return new ApiError(aErrRange, `${what} ${value} out of range ${lo}..${hi}`);
}

/** Throws aErrRange unless lo <= value <= hi (inclusive). */
export function checkRange(what: string, value: number, lo: number, hi: number): number {
  if (!(value >= lo && value <= hi)) throw rangeError(what, value, lo, hi);
  return value;
}

/** Throws aErrRange unless value indexes one of `count` things (0..count-1). */
export function checkIndex(what: string, value: number, count: number): number {
  if (!(Number.isInteger(value) && value >= 0 && value < count)) {
    throw new ApiError(aErrRange, count > 0 ? `${what} ${value} out of range 0..${count - 1}` : `${what} ${value}: this module has none`);
  }
  return value;
}
