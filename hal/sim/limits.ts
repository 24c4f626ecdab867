// Value limits of the simulated module (OpLimits, hal/types.ts): helpers that build them from the
// profile's data, and the one check that enforces them. An entity declares its limits once, in its
// Behaviour; makeEntity publishes them through limits(op) and runs enforceLimits before the handler.

import { ApiError, aErrRange } from '../../src/api/errors';
import type { HalValue, OpLimits } from '../types';

export const READ_ONLY: OpLimits = Object.freeze({ readOnly: true });

/** lo..hi inclusive. */
export function range(min: number, max: number): OpLimits {
  return { min, max };
}

/** One of `count` things: 0..count-1. */
export function indexOf(count: number): OpLimits {
  return { min: 0, max: count - 1 };
}

/** Exactly these integers (sorted ascending in the description). */
export function oneOf(values: readonly number[]): OpLimits {
  return { values: values.slice().sort((a, b) => a - b) };
}

/** 0..count-1 plus a "none" code (255 for a port, a boot slot). */
export function indexOrNone(count: number, none: number): OpLimits {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push(i);
  out.push(none);
  return oneOf(out);
}

/** The set bits of a mask, as values (uart protocols the hardware can run). */
export function bitsOf(mask: number): OpLimits {
  const out: number[] = [];
  for (let b = 0; b < 32; b++) if (mask & (1 << b)) out.push(b);
  return oneOf(out);
}

function shown(values: readonly number[]): string {
  return values.length <= 8 ? values.join(', ') : values.slice(0, 6).join(', ') + ', … ' + values[values.length - 1];
}

function checkOne(what: string, l: OpLimits, v: number): void {
  if (l.values) {
    if (l.values.indexOf(v) < 0) throw new ApiError(aErrRange, `${what} ${v} is not one of ${shown(l.values)}`);
    return;
  }
  const lo = l.min ?? -Infinity;
  const hi = l.max ?? Infinity;
  if (!(v >= lo && v <= hi)) {
    throw new ApiError(aErrRange, `${what} ${v} out of range ${l.min ?? ''}..${l.max ?? ''}`);
  }
}

/** aErrRange unless `value` (a number, or each entry of a list) lies within `l`. */
export function enforceLimits(what: string, l: OpLimits, value: HalValue): void {
  if (typeof value === 'number') checkOne(what, l, value);
  else if (Array.isArray(value)) for (const v of value as readonly number[]) checkOne(what, l, v);
}
