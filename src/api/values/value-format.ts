// GET answers: the `response` object of a route's get code, as JSON text (docs/api.md §Answers).
//   int   {"value": <as the type reads it>, "rawValue": <unsigned 32-bit word>}
//   bool  {"value": true, "rawValue": 1}
//   ilist {"value": "1, 2, 3", "rawValue": [1, 2, 3]}
//   str   {"value": <text>, "rawValue": [bytes]}: ipv4 dotted quads, mac aa:bb:.., UTF-8 text, hex

import type { Route } from '../route/routes';
import type { HalValue } from '../../../hal/types';
import { intType } from './value-decode';
import type { TextCodec } from '../../../util/text';

const HEX = '0123456789abcdef';

/** The value as its type reads it: sign-extended for signed types, masked to the width otherwise. */
function typedInt(v: number, type: string): number {
  const t = intType(type);
  if (t.bits === 32) return t.signed ? v | 0 : v >>> 0;
  const shift = 32 - t.bits;
  return t.signed ? (v << shift) >> shift : (v >>> 0) & ((1 << t.bits) - 1);
}

/**
 * The decimal text of an integer from -2^31 to 2^32 - 1. XS keeps an integer of 2^31 or more as a
 * double and writes it with dtoa (soft float on the chip, thousands of cycles); cut into a quotient and
 * a last digit, both are integers, which it writes at once. Serial numbers are such integers.
 */
export function intText(v: number): string {
  if (v <= 0x7fffffff) return '' + v;
  const q = (v / 10) | 0;
  return '' + q + ((v - q * 10) | 0);
}

function byteList(bytes: Uint8Array): string {
  return '[' + bytes.join(',') + ']';
}

/** The text of a byte value as a JSON string: UTF-8 text escaped; the others are hex, digits and separators. */
function bytesJson(bytes: Uint8Array, type: string, codec: TextCodec): string {
  if (type === 'bytes:text') return JSON.stringify(codec.decode(bytes));
  if (type === 'bytes:ipv4') {
    let text = '"';
    for (let i = 0; i + 3 < bytes.length; i += 4) {
      text += (i ? ', ' : '') + bytes[i] + '.' + bytes[i + 1] + '.' + bytes[i + 2] + '.' + bytes[i + 3];
    }
    return text + '"';
  }
  const separator = type === 'bytes:mac' ? ':' : '';
  let text = '"';
  for (let i = 0; i < bytes.length; i++) text += (i ? separator : '') + HEX[bytes[i] >> 4] + HEX[bytes[i] & 15];
  return text + '"';
}

/** JSON text of the `response` object for a GET (or a PUT's read-back) of `route`. */
export function formatValue(route: Route, value: HalValue, codec: TextCodec): string {
  switch (route.get) {
    case 'int': {
      const v = typedInt(value as number, route.type);
      const text = intText(v);
      // The word itself is the value but for a negative one: written once.
      return '{"value":' + text + ',"rawValue":' + (v < 0 ? intText(v >>> 0) : text) + '}';
    }
    case 'bool':
      return value ? '{"value":true,"rawValue":1}' : '{"value":false,"rawValue":0}';
    case 'ilist': {
      const list = value as readonly number[];
      let raw = '';
      for (let i = 0; i < list.length; i++) raw += (i ? ',' : '') + (list[i] >>> 0);
      return '{"value":"' + raw.split(',').join(', ') + '","rawValue":[' + raw + ']}';
    }
    case 'str': {
      if (typeof value === 'string') return '{"value":' + JSON.stringify(value) + ',"rawValue":' + byteList(codec.encode(value)) + '}';
      const bytes = value as Uint8Array;
      return '{"value":' + bytesJson(bytes, route.type, codec) + ',"rawValue":' + byteList(bytes) + '}';
    }
  }
  return '{}';
}
