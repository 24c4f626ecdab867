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

export function serialText(serial: number): string {
  const hex = (serial >>> 0).toString(16).toUpperCase();
  return '0x' + '00000000'.slice(hex.length) + hex;
}
