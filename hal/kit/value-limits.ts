// The one check of a module's own value limits (OpLimits, hal/types.ts), shared by both HALs. Each
// entity builder publishes an operation's limits through limits(op) and runs checkLimits with the same
// object before it changes anything, so what is published and what is enforced cannot drift
// (docs/api.md §What a module has and accepts).

import { ApiError, aErrRange } from './errors';
import type { HalValue, OpLimits } from '../types';

/** Published for every operation this module reads but cannot set. */
export const READ_ONLY: OpLimits = Object.freeze({ readOnly: true });

/**
 * Limits of a list of accepted integers, frozen with their JSON text: made once (at build time for a
 * preloaded module, so both live in flash), the description writes the text as it is.
 */
export function oneOfValues(list: number[]): OpLimits {
  return Object.freeze({ values: Object.freeze(list), valuesJson: jsonOf(list) });
}

/** The JSON text of limits' accepted values: the frozen text when the list has one, else made now. */
export function valuesJson(l: OpLimits): string {
  return l.valuesJson ?? jsonOf(l.values ?? []);
}

function jsonOf(list: readonly number[]): string {
  return '[' + list.join(',') + ']';
}

function evenUpTo(max: number): number[] {
  const out: number[] = [];
  for (let v = 0; v <= max; v += 2) out.push(v);
  return out;
}

/** system/modulesoftwareoffset on every module: BrainStem module addresses are even, 0, 2 ... 254. */
export const MODULE_OFFSETS: OpLimits = oneOfValues(evenUpTo(254));

/** system/bootslot's "boot from no slot". */
export const NO_BOOT_SLOT = 255;

/** 0..count-1 plus a "none" code (255 for a port, a boot slot), frozen. */
export function indexOrNone(count: number, none: number): OpLimits {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push(i);
  if (none >= count) out.push(none);
  return oneOfValues(out);
}

/** Up to 8 values in full; a longer list as its first six, an ellipsis and its last. */
function listText(values: readonly number[]): string {
  return values.length <= 8 ? values.join(', ') : values.slice(0, 6).join(', ') + ', ... ' + values[values.length - 1];
}

/**
 * The one message of a refused integer, wherever it is refused: the value as sent and the bounds the
 * description publishes (`what: 300 is out of range 1..255`, `what: 3 is not one of 0, 1, 4`).
 */
export function outOfBounds(what: string, shown: string, l: OpLimits): ApiError {
  return new ApiError(aErrRange, l.values
    ? `${what}: ${shown} is not one of ${listText(l.values)}`
    : `${what}: ${shown} is out of range ${l.min ?? ''}..${l.max ?? ''}`);
}

function checkOne(op: string, l: OpLimits, n: number): void {
  if (l.values ? l.values.indexOf(n) < 0 : !((l.min === undefined || n >= l.min) && (l.max === undefined || n <= l.max))) {
    throw outOfBounds(op, String(n), l);
  }
}

/**
 * Throws 400 aErrRange unless `value` is inside `l` (booleans as 0/1, lists entry by entry), with the
 * message of outOfBounds, put together only when a value is refused.
 */
export function checkLimits(op: string, l: OpLimits | null | undefined, value: HalValue): void {
  if (!l || l.readOnly) return;
  if (typeof value === 'number') checkOne(op, l, value);
  else if (typeof value === 'boolean') checkOne(op, l, value ? 1 : 0);
  else if (Array.isArray(value)) for (let i = 0; i < value.length; i++) checkOne(op, l, value[i]);
}
