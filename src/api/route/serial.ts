// Serial numbers in paths and listings (docs/api.md §Addresses): up to 8 hex digits, `0x` optional,
// any case, when read; `0x` and 8 upper-case digits when written.

function isHexDigit(c: number): boolean {
  return (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 102);
}

/** How many characters of `segment` are the `0x` prefix (0 or 2). */
export function hexPrefix(segment: string): number {
  return segment.length > 2 && segment.charCodeAt(0) === 48 && (segment.charCodeAt(1) | 32) === 120 ? 2 : 0;
}

/** The number a hex segment spells (0x optional, any length), or -1 if it is not hex. */
export function parseSerial(segment: string): number {
  let i = hexPrefix(segment);
  if (i === segment.length) return -1;
  let v = 0;
  for (; i < segment.length; i++) {
    const c = segment.charCodeAt(i);
    if (!isHexDigit(c)) return -1;
    v = v * 16 + (c <= 57 ? c - 48 : (c | 32) - 87);
  }
  return v;
}

/**
 * `0x` and the 8 upper-case hex digits of a serial, made in one native call from the char codes of
 * its two 16-bit halves' digits, integers (no call per digit: under XS a call costs more than the digit):
 * XS writes a number in a radix other than 10 with floating point (xsNumber.c), soft on the chip, and a
 * serial of 2^31 or more is a double there.
 */
export function serialText(serial: number): string {
  const hi = serial >>> 16;
  const lo = serial & 0xffff;
  const a = hi >> 12, b = (hi >> 8) & 15, c = (hi >> 4) & 15, d = hi & 15;
  const e = lo >> 12, f = (lo >> 8) & 15, g = (lo >> 4) & 15, h = lo & 15;
  return String.fromCharCode(48, 120, a + (a < 10 ? 48 : 55), b + (b < 10 ? 48 : 55), c + (c < 10 ? 48 : 55), d + (d < 10 ? 48 : 55),
    e + (e < 10 ? 48 : 55), f + (f < 10 ? 48 : 55), g + (g < 10 ? 48 : 55), h + (h < 10 ? 48 : 55));
}
