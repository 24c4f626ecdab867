// A PUT body (src/api/values/request-body.ts, json-body.ts): read by hand, it is valid or not exactly
// where JSON.parse says so, and its `value` member is what JSON.parse reads (the last one), as far as
// any value form looks: scalars and arrays of scalars whole, an object or an array inside an array as
// an empty one. Nothing else of the body is kept (no member name becomes an XS key).
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { parseJson } from '../src/api/values/request-body';
import { JSON_MAX_DEPTH } from '../src/api/values/json-body';
import { ApiError, errorName } from '../hal/kit/errors';

/** How deep `v` nests (a scalar 0). */
function depth(v: unknown): number {
  if (typeof v !== 'object' || v === null) return 0;
  let most = 0;
  for (const e of Object.values(v)) most = Math.max(most, depth(e));
  return 1 + most;
}

/** The part of a value any value form reads: arrays of scalars whole; deeper arrays and objects empty. */
function shape(v: unknown, outer: boolean): unknown {
  if (Array.isArray(v)) return outer ? v.map((e) => shape(e, false)) : [];
  return typeof v === 'object' && v !== null ? {} : v;
}

/** What parseJson must give: {value} (or {}) from JSON.parse's object, or the code and message of its fault. */
function expected(text: string): unknown {
  if (text.length === 0) return ['aErrParam', 'a PUT needs a body {"value": ...}'];
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return ['aErrParse', 'the body is not valid JSON; send {"value": ...}'];
  }
  if (depth(body) > JSON_MAX_DEPTH) return ['aErrParse', `the body nests deeper than ${JSON_MAX_DEPTH} levels; send {"value": ...}`];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return ['aErrParam', 'the body must be a JSON object {"value": ...}'];
  return 'value' in body ? { value: shape((body as { value: unknown }).value, true) } : {};
}

function check(text: string): void {
  const got = parseJson(text);
  const want = expected(text);
  if (got instanceof ApiError) assert.deepEqual([errorName(got.code), got.message], want, text);
  else {
    assert.deepStrictEqual(got, want, text);
    const v = (got as { value?: unknown }).value;
    if (typeof v === 'number') assert.ok(Object.is(v, (want as { value?: unknown }).value), `${text}: -0 stays -0`);
  }
}

const SAMPLES = [
  '{"value": 12}', '{"value":12}', ' \t\r\n{ "value" : -7 } \n', '{"value": 0}', '{"value": -0}', '{"value": 00}',
  '{"value": 012}', '{"value": 1.5}', '{"value": 1e3}', '{"value": 1E3}', '{"value": -}', '{"value": +1}',
  '{"value": 123456789012345}', '{"value": 1234567890123456}', '{"value": 99999999999999999999}',
  '{"value": "abc"}', '{"value": ""}', '{"value": "a\\"b"}', '{"value": "a\\u0041"}', '{"value": "a\tb"}',
  '{"value": "é€😀"}', '{"value": "abc}', '{"value": 12', '{"value": 12}}', '{"value": 12,}', '{"value": 1, "x": 2}',
  '{"value": 1, "value": 2}', '{"value": true}', '{"value": null}', '{"value": [1]}', '{"Value": 1}', '{"valuex": 1}',
  '{"value" 1}', '{}', '[]', '12', '"x"', 'null', '{', '', ' ', '{"value": 12} x', '{"value": 12}\u00a0',
  '{"\\u0076alue": 3}', '{"value": {"a": 1}}', '{"value": [1, [2, 3], {"b": 4}, "0x1F"]}', '{"value": [ ]}', '{"a": {"b": [1, {"c": null}]}}',
  '{"value": 1, "value": {"x": 1}}', '{"x": {"value": 1}}', '{"value": tru}', '{"value": nulls}', '{"value": "\\x"}', '{"value": "\\u12G4"}',
  '{"value": 1.}', '{"value": .5}', '{"value": 1e}', '{"value": -01}', '{"value": [1,]}', '{"value": [,1]}', '{,"value": 1}', '{"value": 1 2}',
  '{"a" : 1 , "value" : [ "1" , 2 ] }', '{"value": "\\/\\b\\f\\n\\r\\t\\""}', '{"value": 1}\t\r\n ', '\uFEFF{"value": 1}',
  '{"value": ' + '['.repeat(29) + ']'.repeat(29) + '}', '{"value": ' + '['.repeat(30) + ']'.repeat(30) + '}', '['.repeat(5000) + ']'.repeat(5000),
];

describe('PUT body (request-body.ts)', () => {
  it('reads bodies as JSON.parse does: the usual shapes, faults, escapes, nesting, repeated members', () => {
    for (const text of SAMPLES) check(text);
  });

  it('agrees with JSON.parse on generated bodies near the usual shape', () => {
    const space = fc.constantFrom('', ' ', '\t', '\n', '\r\n', '  ', '\u00a0');
    const value = fc.oneof(
      fc.integer().map(String), fc.double().map(String), fc.string({ maxLength: 6 }).map((s) => JSON.stringify(s)),
      fc.string({ maxLength: 6 }).map((s) => '"' + s + '"'), fc.constantFrom('-0', '01', '-', '1.', 'true', '"\\n"'),
    );
    fc.assert(fc.property(space, space, space, space, space, fc.constantFrom('"value"', '"v"', 'value'), value, fc.constantFrom('}', '', '},', ',"a":1}'),
      (a, b, c, d, e, key, v, close) => check(a + '{' + b + key + c + ':' + d + v + e + close)), { numRuns: 2000 });
  });
});

describe('PUT body against JSON.parse on generated JSON (json-body.ts)', () => {
  it('reads any JSON text as JSON.parse does, its value member as far as a value form looks', () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 4 }), fc.boolean(), (v, wrap) => {
      const text = JSON.stringify(wrap ? { a: 1, value: v, b: [v] } : v, null, wrap ? 1 : 0);
      check(text);
    }), { numRuns: 1000 });
  });

  it('refuses exactly the texts JSON.parse refuses', () => {
    const piece = fc.constantFrom('{', '}', '[', ']', ',', ':', '"value"', '"a"', '1', '-', '.', 'e', '0', 'true', 'nul', ' ', '"\\', '\\u00', '"');
    fc.assert(fc.property(fc.array(piece, { maxLength: 12 }), (parts) => check(parts.join(''))), { numRuns: 3000 });
  });
});
