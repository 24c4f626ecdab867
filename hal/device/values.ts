// Value guards for the device HAL. The API core has already decoded and range-checked every value
// against the route table; these only catch a wrong JavaScript type (a bug: aErrParam) and add the
// limits only the board knows (aErrRange).

import { ApiError, aErrParam, aErrRange } from '../../src/api/errors';
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

export function asString(v: HalValue, what: string): string {
  if (typeof v === 'string') return v;
  throw new ApiError(aErrParam, `${what}: a string is needed`);
}

/** Throws aErrRange unless lo <= value <= hi; the message names the value and the range. */
export function checkRange(what: string, value: number, lo: number, hi: number): number {
  if (!(value >= lo && value <= hi)) throw new ApiError(aErrRange, `${what} ${value} out of range ${lo}..${hi}`);
  return value;
}

/** Dotted-quad text to 4 bytes; null when it is not one (Net answers text). */
export function ipv4Bytes(text: string | undefined): Uint8Array {
  const out = new Uint8Array(4);
  if (!text) return out;
  const parts = text.split('.');
  if (parts.length !== 4) return out;
  for (let i = 0; i < 4; i++) {
    const n = Number(parts[i]);
    if (!(n >= 0 && n <= 255)) return new Uint8Array(4);
    out[i] = n;
  }
  return out;
}

/** "00:11:22:aa:bb:cc" (or with '-') to 6 bytes; zeros when malformed. */
export function macBytes(text: string | undefined): Uint8Array {
  const out = new Uint8Array(6);
  if (!text) return out;
  const parts = text.split(/[:-]/);
  if (parts.length !== 6) return out;
  for (let i = 0; i < 6; i++) {
    const n = parseInt(parts[i], 16);
    if (!(n >= 0 && n <= 255)) return new Uint8Array(6);
    out[i] = n;
  }
  return out;
}
