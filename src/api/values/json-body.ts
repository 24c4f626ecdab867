// A PUT body's JSON read without JSON.parse making keys of its member names: XS turns each member name
// JSON.parse reads into a key that lives as long as the machine, one heap slot each (util/known-key.ts),
// so bodies with names of a client's choosing would take a module's heap a slot at a time. Here the
// body is checked against the JSON grammar (RFC 8259 §2-7) by a loop that keeps its nesting in one
// number (no recursion on a module's small stack), and only the `value` member is made: a string or a
// number by JSON.parse of its own text (which makes no key), an array element by element, and an
// object, which no value form takes, as an empty one (its members are never read).

/** Deepest nesting a body may have: one bit of a number per level, object or array. */
export const JSON_MAX_DEPTH = 30;

/** scan() results other than an index. */
export const JSON_BAD = -1;
export const JSON_TOO_DEEP = -2;
/** readBody(): valid JSON, but not an object. */
export const JSON_NOT_OBJECT = -3;

function ws(text: string, i: number): number {
  for (let c = text.charCodeAt(i); c === 32 || c === 9 || c === 10 || c === 13; c = text.charCodeAt(++i));
  return i;
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

/** The end of the string token at `i` (a quote), or JSON_BAD. */
function stringEnd(text: string, i: number): number {
  if (text.charCodeAt(i) !== 34) return JSON_BAD;
  for (i++; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) return i + 1;
    if (c < 32) return JSON_BAD;
    if (c !== 92) continue;
    const e = text.charCodeAt(++i);
    if (e === 117) {
      if (!(isHex(text.charCodeAt(i + 1)) && isHex(text.charCodeAt(i + 2)) && isHex(text.charCodeAt(i + 3)) && isHex(text.charCodeAt(i + 4)))) return JSON_BAD;
      i += 4;
    } else if (!(e === 34 || e === 92 || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116)) {
      return JSON_BAD;
    }
  }
  return JSON_BAD;
}

function digitsEnd(text: string, i: number): number {
  const start = i;
  for (let c = text.charCodeAt(i); c >= 48 && c <= 57; c = text.charCodeAt(++i));
  return i > start ? i : JSON_BAD;
}

/** The end of the number, true, false or null at `i`, or JSON_BAD. */
function scalarEnd(text: string, i: number): number {
  if (text.startsWith('true', i) || text.startsWith('null', i)) return i + 4;
  if (text.startsWith('false', i)) return i + 5;
  if (text.charCodeAt(i) === 45) i++;
  if (text.charCodeAt(i) === 48) i++;
  else if ((i = digitsEnd(text, i)) < 0) return JSON_BAD;
  if (text.charCodeAt(i) === 46 && (i = digitsEnd(text, i + 1)) < 0) return JSON_BAD;
  const e = text.charCodeAt(i);
  if (e === 101 || e === 69) {
    const s = text.charCodeAt(++i);
    if (s === 43 || s === 45) i++;
    if ((i = digitsEnd(text, i)) < 0) return JSON_BAD;
  }
  return i;
}

/** After `{` or `,` in an object: the member's name and colon; the index of its value, or JSON_BAD. */
function memberValue(text: string, i: number): number {
  i = stringEnd(text, ws(text, i));
  if (i < 0) return JSON_BAD;
  i = ws(text, i);
  return text.charCodeAt(i) === 58 ? ws(text, i + 1) : JSON_BAD;
}

/** The end of the JSON value at `i` (whitespace before it skipped), JSON_BAD or JSON_TOO_DEEP. */
export function scan(text: string, i: number): number {
  let depth = 0;
  let objects = 0; // bit d set: the container at depth d + 1 is an object
  for (;;) {
    i = ws(text, i);
    const c = text.charCodeAt(i);
    if (c === 123 || c === 91) { // { or [
      if (depth === JSON_MAX_DEPTH) return JSON_TOO_DEEP;
      objects = c === 123 ? objects | (1 << depth) : objects & ~(1 << depth);
      depth++;
      const close = c === 123 ? 125 : 93;
      i = ws(text, i + 1);
      if (text.charCodeAt(i) !== close) {
        if (c === 123 && (i = memberValue(text, i)) < 0) return JSON_BAD;
        continue; // a value comes next
      }
      i++;
      depth--;
    } else {
      i = c === 34 ? stringEnd(text, i) : scalarEnd(text, i);
      if (i < 0) return JSON_BAD;
    }
    // A value ended: close containers, or find the next value of the one it is in.
    for (;;) {
      if (depth === 0) return i;
      i = ws(text, i);
      const d = text.charCodeAt(i);
      const inObject = (objects & (1 << (depth - 1))) !== 0;
      if (d === 44) { // ,
        i = inObject ? memberValue(text, i + 1) : i + 1;
        if (i < 0) return JSON_BAD;
        break;
      }
      if (d !== (inObject ? 125 : 93)) return JSON_BAD;
      i++;
      depth--;
    }
  }
}

/** The value whose text runs from `i` to `end` (scanned already): arrays one level deep, objects empty. */
function valueOf(text: string, i: number, end: number, outer: boolean): unknown {
  const c = text.charCodeAt(i);
  if (c === 123) return {};
  if (c !== 91) return JSON.parse(text.slice(i, end));
  const out: unknown[] = [];
  if (!outer) return out; // an array in an array: the wrong type for every value form, whatever it holds
  i = ws(text, i + 1);
  if (text.charCodeAt(i) === 93) return out;
  for (;;) {
    const e = scan(text, i);
    out.push(valueOf(text, i, e, false));
    i = ws(text, e);
    if (text.charCodeAt(i) === 93) return out;
    i = ws(text, i + 1);
  }
}

/** Is the name token from `i` to `end` "value" (written with escapes too)? */
function isValueName(text: string, i: number, end: number): boolean {
  if (end - i === 7 && text.startsWith('"value"', i)) return true;
  const escape = text.indexOf('\\', i); // only a name with an escape can spell "value" another way
  return escape >= 0 && escape < end && JSON.parse(text.slice(i, end)) === 'value';
}

/**
 * The object at `i` (the body was scanned whole): `{value}` from its last `value` member, as
 * JSON.parse keeps the last, or an empty object when it has none.
 */
function objectValue(text: string, i: number): { value?: unknown } {
  let found = -1;
  let foundEnd = -1;
  i = ws(text, i + 1);
  if (text.charCodeAt(i) === 125) return {};
  for (;;) {
    const nameEnd = stringEnd(text, i);
    const at = ws(text, ws(text, nameEnd) + 1);
    const end = scan(text, at);
    if (isValueName(text, i, nameEnd)) {
      found = at;
      foundEnd = end;
    }
    i = ws(text, end);
    if (text.charCodeAt(i) === 125) break;
    i = ws(text, i + 1);
  }
  return found < 0 ? {} : { value: valueOf(text, found, foundEnd, true) };
}

/** A PUT body: `{value}` (its last `value` member), `{}` (none), or JSON_BAD, JSON_TOO_DEEP or JSON_NOT_OBJECT. */
export function readBody(text: string): { value?: unknown } | number {
  const start = ws(text, 0);
  const end = scan(text, start);
  if (end < 0) return end;
  if (ws(text, end) !== text.length) return JSON_BAD;
  return text.charCodeAt(start) === 123 ? objectValue(text, start) : JSON_NOT_OBJECT;
}
