// A PUT body (src/api/values/request-body.ts): the hand-read usual shape gives what JSON.parse gives, and
// anything else (faults included) still goes through JSON.parse with the same answers.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { parseJson } from '../src/api/values/request-body';
import { ApiError, errorName } from '../hal/kit/errors';

/** What parseJson must give: JSON.parse's object, or the code and message of its fault. */
function expected(text: string): unknown {
  if (text.length === 0) return ['aErrParam', 'a PUT needs a body {"value": ...}'];
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return ['aErrParse', 'the body is not valid JSON; send {"value": ...}'];
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return ['aErrParam', 'the body must be a JSON object {"value": ...}'];
  return body;
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
];

describe('PUT body (request-body.ts)', () => {
  it('reads the usual shapes by hand exactly as JSON.parse, and leaves everything else to it', () => {
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
