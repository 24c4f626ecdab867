// Value limits of the simulated module (OpLimits, hal/types.ts): helpers that build them from the
// profile's data. An entity declares its limits once, in its Behaviour; makeEntity publishes them
// through limits(op) and runs the shared check (hal/kit/value-limits.ts) before the handler.

import type { OpLimits } from '../types';

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

/** The set bits of a mask, as values (uart protocols the hardware can run). */
export function bitsOf(mask: number): OpLimits {
  const out: number[] = [];
  for (let b = 0; b < 32; b++) if (mask & (1 << b)) out.push(b);
  return oneOf(out);
}
