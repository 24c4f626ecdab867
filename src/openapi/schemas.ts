// JSON Schemas (2020-12) of the OpenAPI document: request values by put code and type, answers by get
// code, the envelope and its error form (docs/api.md §Requests and value forms, §Answers). Build-time code: it runs
// in Node (tools/gen-openapi.mjs), never on the module, which serves the generated document.

import { intType } from '../api/values/value-decode';
import type { Route } from '../api/route/routes';
import type { OpLimits } from '../../hal/types';
import { LIST_MAX, BYTES_MAX, NAME_MAX } from '../api/values/value-decode';

export type Schema = { [key: string]: unknown };

const DECIMAL_OR_HEX = '^(-?[0-9]+|0[xX][0-9a-fA-F]+)$';
const UNSIGNED_OR_HEX = '^([0-9]+|0[xX][0-9a-fA-F]+)$';
const BOOL_TEXT = '^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|[01])$';

function typeBounds(type: string): [number, number] {
  const t = intType(type);
  return t.signed ? [-(2 ** (t.bits - 1)), 2 ** (t.bits - 1) - 1] : [0, 2 ** t.bits - 1];
}

/** The integer range of a route: its type, narrowed by the range column. */
export function routeBounds(r: Route): [number, number] {
  const [lo, hi] = typeBounds(r.type);
  return r.min <= r.max ? [Math.max(lo, r.min), Math.min(hi, r.max)] : [lo, hi];
}

/** The integers a PUT accepts: the published bounds `b` where the build's module has them, else the route's. */
function intNumber(b: OpLimits | null, lo: number, hi: number): Schema {
  if (b && b.values) return { type: 'integer', enum: [...b.values] };
  return { type: 'integer', minimum: b && b.min !== undefined ? b.min : lo, maximum: b && b.max !== undefined ? b.max : hi };
}

function intValue(number: Schema, signed: boolean): Schema {
  return {
    oneOf: [
      number,
      { type: 'string', pattern: signed ? DECIMAL_OR_HEX : UNSIGNED_OR_HEX, description: 'decimal, or 0x hex (a bit pattern of the type\'s width)' },
    ],
  };
}

/**
 * The `value` a PUT takes, by put code (I8/I16/I32/BOOL/L32/L8/STR); `b`: the bounds the build's module
 * publishes for an integer PUT (an L32 list's entries), null where it publishes none.
 */
export function valueSchema(r: Route, b: OpLimits | null): Schema {
  switch (r.put) {
    case 'I8': case 'I16': case 'I32': {
      const [lo, hi] = routeBounds(r);
      return intValue(intNumber(b, lo, hi), intType(r.type).signed);
    }
    case 'BOOL':
      return { oneOf: [{ type: 'boolean' }, { type: 'integer', enum: [0, 1] }, { type: 'string', pattern: BOOL_TEXT }] };
    case 'L32':
      return { type: 'array', maxItems: LIST_MAX, items: intValue(intNumber(b, 0, 4294967295), false) };
    case 'L8': {
      const text = r.type === 'bytes:ipv4'
        ? { type: 'string', description: r.list ? 'dotted quads separated by commas ("8.8.8.8, 1.1.1.1")' : 'a dotted quad ("192.168.1.20")' }
        : { type: 'string', description: `UTF-8 text, at most ${BYTES_MAX} bytes` };
      return { oneOf: [text, { type: 'array', maxItems: BYTES_MAX, items: intValue({ type: 'integer', minimum: 0, maximum: 255 }, false) }] };
    }
    default: // STR
      return { type: 'string', maxLength: NAME_MAX, description: `a name: at most ${NAME_MAX} UTF-8 bytes, no control characters` };
  }
}

/** `response` of a successful answer, by get code. */
export const RESPONSE_BY_GET: { readonly [code: string]: Schema } = {
  int: {
    type: 'object', required: ['value', 'rawValue'],
    properties: { value: { type: 'integer' }, rawValue: { type: 'integer', minimum: 0, maximum: 4294967295 } },
  },
  bool: {
    type: 'object', required: ['value', 'rawValue'],
    properties: { value: { type: 'boolean' }, rawValue: { type: 'integer', enum: [0, 1] } },
  },
  ilist: {
    type: 'object', required: ['value', 'rawValue'],
    properties: { value: { type: 'string', description: 'the entries, ", "-separated' }, rawValue: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 4294967295 } } },
  },
  str: {
    type: 'object', required: ['value', 'rawValue'],
    properties: { value: { type: 'string' }, rawValue: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 255 } } },
  },
  none: { type: 'object', maxProperties: 0 },
};

export const ERROR_RESPONSE: Schema = {
  type: 'object', required: ['error', 'message'],
  properties: {
    error: { type: 'string', pattern: '^aErr[A-Za-z]+$', description: 'the BrainStem error code name' },
    message: { type: 'string', description: 'what was wrong, with the value and the allowed range or form' },
  },
};

/** {timestamp, request: {endpointName, parameters}, response: <inner>}. */
export function envelope(inner: Schema): Schema {
  return {
    type: 'object', required: ['timestamp', 'request', 'response'],
    properties: {
      timestamp: { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$' },
      request: {
        type: 'object', required: ['endpointName', 'parameters'],
        properties: {
          endpointName: { type: 'string', description: 'the path as sent' },
          parameters: { type: 'object', description: 'the PUT body when it is a JSON object, else {}' },
        },
      },
      response: inner,
    },
  };
}
