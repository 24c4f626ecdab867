// PUT values: the JSON `value` of a request decoded by the route's request code (I8/I16/I32, BOOL,
// L32, L8, STR) and type, with docs/api.md's forms and errors:
//   malformed string -> aErrParse, wrong JSON type -> aErrParam, out of range -> aErrRange,
//   too many entries or bytes -> aErrSize. Messages name the value and what is allowed.

import { ApiError, aErrParam, aErrParse, aErrRange, aErrSize } from '../../../hal/kit/errors';
import type { Route } from '../route/routes';
import type { HalValue } from '../../../hal/types';
import { utf8Length, type TextCodec } from '../../../util/text';
import { outOfBounds } from '../../../hal/kit/value-limits';
import { intType, outOfRoute, type IntType } from './bounds';
import type { EntityHal } from '../../../hal/types';

export { intType };

/** Most entries of an L32 list, bytes of an L8 value, UTF-8 bytes of a STR name. */
export const LIST_MAX = 64;
export const BYTES_MAX = 64;
export const NAME_MAX = 32;

const U32: IntType = intType('u32');
const U8: IntType = intType('u8');

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : String(value);
}

/**
 * An integer of type `t` from a JSON number or a decimal/0x-hex string, not yet range-checked. A hex
 * string is a bit pattern of the width ("0xFFFFFFFF" as i32 is -1); a wider one reads as Infinity.
 */
function readInt(value: unknown, t: IntType, what: string): number {
  if (typeof value === 'number') {
    if (Number.isInteger(value) || !Number.isFinite(value)) return value; // a non-finite one is out of range
    throw new ApiError(aErrParam, `${what}: ${value} is not an integer`);
  }
  if (typeof value !== 'string') {
    throw new ApiError(aErrParam, `${what}: expected an integer or a decimal or 0x-hex string, got ${describe(value)}`);
  }
  const n = value.length;
  if (n > 2 && value.charCodeAt(0) === 48 && (value.charCodeAt(1) | 32) === 120) { // 0x / 0X
    let v = 0;
    let significant = 0;
    for (let i = 2; i < n; i++) {
      const c = value.charCodeAt(i);
      const d = c >= 48 && c <= 57 ? c - 48 : (c | 32) >= 97 && (c | 32) <= 102 ? (c | 32) - 87 : -1;
      if (d < 0) throw new ApiError(aErrParse, `${what}: ${JSON.stringify(value)} is not a decimal or 0x-hex integer`);
      if (v > 0 || d > 0) significant++;
      v = v * 16 + d;
    }
    // Wider than the type: refused by the range check that follows, which shows the text as sent.
    if (significant * 4 > 52 || v > 2 ** t.bits - 1) return Infinity;
    // The bit pattern, read as the type: high bit set on a signed type is negative.
    return t.signed && v >= 2 ** (t.bits - 1) ? v - 2 ** t.bits : v;
  }
  let i = 0;
  if (n > 1 && value.charCodeAt(0) === 45) i = 1; // '-'
  if (i === n) throw new ApiError(aErrParse, `${what}: ${JSON.stringify(value)} is not a decimal or 0x-hex integer`);
  let v = 0;
  for (; i < n; i++) {
    const d = value.charCodeAt(i) - 48;
    if (d < 0 || d > 9) throw new ApiError(aErrParse, `${what}: ${JSON.stringify(value)} is not a decimal or 0x-hex integer`);
    v = v * 10 + d;
  }
  return value.charCodeAt(0) === 45 ? -v : v;
}

export function decodeInt(value: unknown, t: IntType, what: string): number {
  return checkTypeRange(readInt(value, t, what), t, what, value);
}

function checkTypeRange(v: number, t: IntType, what: string, shown: unknown): number {
  if (!(v >= t.min && v <= t.max)) throw outOfBounds(what, typeof shown === 'string' ? shown : String(v), t);
  return v === 0 ? 0 : v; // no -0
}

function decodeBool(value: unknown, what: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new ApiError(aErrParam, `${what}: ${value} is not a boolean`);
    if (value === 0 || value === 1) return value === 1;
    throw new ApiError(aErrRange, `${what}: ${value} is out of range 0..1 for a boolean`);
  }
  if (typeof value === 'string') {
    const s = value.toLowerCase();
    if (s === 'true' || s === '1') return true;
    if (s === 'false' || s === '0') return false;
    throw new ApiError(aErrParse, `${what}: ${JSON.stringify(value)} is not a boolean (true, false, 1 or 0)`);
  }
  throw new ApiError(aErrParam, `${what}: expected a boolean, got ${describe(value)}`);
}

function decodeList32(value: unknown, route: Route, hal: EntityHal | null | undefined, what: string): number[] {
  if (!Array.isArray(value)) throw new ApiError(aErrParam, `${what}: expected an array of u32, got ${describe(value)}`);
  if (value.length > LIST_MAX) throw new ApiError(aErrSize, `${what}: ${value.length} entries, at most ${LIST_MAX}`);
  const out: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const v = readInt(value[i], U32, `${what}[${i}]`);
    if (!(v >= 0 && v <= U32.max)) throw outOfRoute(route, hal, v, `${what}[${i}]`, value[i]);
    out.push(v === 0 ? 0 : v);
  }
  return out;
}

function decodeByteArray(value: unknown[], what: string): Uint8Array {
  if (value.length > BYTES_MAX) throw new ApiError(aErrSize, `${what}: ${value.length} bytes, at most ${BYTES_MAX}`);
  const out = new Uint8Array(value.length);
  for (let i = 0; i < value.length; i++) out[i] = decodeInt(value[i], U8, `${what}[${i}]`);
  return out;
}

/** Dotted quads, comma-separated when `several`: "192.168.1.20" or "8.8.8.8, 1.1.1.1". */
function decodeIpv4Text(text: string, several: boolean, what: string): Uint8Array {
  const parts = text.split(',');
  if (!several && parts.length > 1) throw new ApiError(aErrParse, `${what}: expected one dotted-quad address, got ${JSON.stringify(text)}`);
  if (parts.length * 4 > BYTES_MAX) throw new ApiError(aErrSize, `${what}: ${parts.length} addresses, at most ${BYTES_MAX / 4}`);
  const out = new Uint8Array(parts.length * 4);
  for (let a = 0; a < parts.length; a++) {
    const quads = parts[a].trim().split('.');
    if (quads.length !== 4) throw new ApiError(aErrParse, `${what}: ${JSON.stringify(parts[a].trim())} is not a dotted-quad address`);
    for (let q = 0; q < 4; q++) {
      const s = quads[q];
      let v = 0;
      if (s.length === 0 || s.length > 3) throw new ApiError(aErrParse, `${what}: ${JSON.stringify(parts[a].trim())} is not a dotted-quad address`);
      for (let i = 0; i < s.length; i++) {
        const d = s.charCodeAt(i) - 48;
        if (d < 0 || d > 9) throw new ApiError(aErrParse, `${what}: ${JSON.stringify(parts[a].trim())} is not a dotted-quad address`);
        v = v * 10 + d;
      }
      if (v > 255) throw new ApiError(aErrRange, `${what}: ${v} in ${JSON.stringify(parts[a].trim())} is out of range 0..255`);
      out[a * 4 + q] = v;
    }
  }
  return out;
}

function decodeBytes(value: unknown, route: Route, what: string, codec: TextCodec): Uint8Array {
  let bytes: Uint8Array;
  if (typeof value === 'string') {
    if (route.type === 'bytes:ipv4') return decodeIpv4Text(value, route.list, what);
    if (utf8Length(value) > BYTES_MAX) throw new ApiError(aErrSize, `${what}: ${utf8Length(value)} bytes, at most ${BYTES_MAX}`);
    bytes = codec.encode(value);
  } else if (Array.isArray(value)) {
    bytes = decodeByteArray(value, what);
  } else {
    throw new ApiError(aErrParam, `${what}: expected a string or an array of bytes, got ${describe(value)}`);
  }
  if (route.type === 'bytes:ipv4' && (bytes.length === 0 || bytes.length % 4 !== 0 || (!route.list && bytes.length !== 4))) {
    throw new ApiError(aErrSize, `${what}: ${bytes.length} bytes; an IPv4 address is 4 bytes${route.list ? ' (several: a multiple of 4)' : ''}`);
  }
  return bytes;
}

function decodeName(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new ApiError(aErrParam, `${what}: expected a string, got ${describe(value)}`);
  const size = utf8Length(value);
  if (size > NAME_MAX) throw new ApiError(aErrSize, `${what}: ${size} bytes, at most ${NAME_MAX}`);
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 32 || (c >= 127 && c < 160)) throw new ApiError(aErrParam, `${what}: control characters are not allowed in a name`);
  }
  return value;
}

/**
 * The PUT `value` decoded for `route`, or an ApiError. An integer is checked against the type and the
 * range column; a refusal names the bounds the description publishes, `hal`'s limits included.
 */
export function decodeValue(route: Route, value: unknown, codec: TextCodec, hal?: EntityHal | null): HalValue {
  const what = route.op;
  switch (route.put) {
    case 'I8': case 'I16': case 'I32': {
      const t = intType(route.type);
      const v = readInt(value, t, what);
      if (v >= t.min && v <= t.max && (route.min > route.max || (v >= route.min && v <= route.max))) return v === 0 ? 0 : v;
      throw outOfRoute(route, hal, v, what, value);
    }
    case 'BOOL': return decodeBool(value, what);
    case 'L32': return decodeList32(value, route, hal, what);
    case 'L8': return decodeBytes(value, route, what, codec);
    case 'STR': return decodeName(value, what);
  }
  throw new ApiError(aErrParam, `${what} cannot be set`);
}
