// Small helpers every simulated entity uses: deterministic noise, clamping and text bytes. The value
// guards (asNumber, checkIndex...) are shared with the device HAL: hal/kit/value-guards.ts.

function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * Deterministic noise in [-1, 1) from integer parts (a channel key, a time slot...). Measurements use it
 * with a time slot of one second, so that the values read together in one instant agree with each other
 * (P = V·I holds between separate reads) yet a module left alone still "breathes" like a real one.
 */
export function noise(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const p of parts) h = mix(h ^ (Math.floor(p) % 4294967296 | 0));
  return h / 2147483648 - 1;
}

/** One-second time slot of a millisecond time, the granularity of measurement noise. */
export function slot(ms: number): number {
  return Math.floor(ms / 1000);
}

export function clampInt(v: number, lo: number, hi: number): number {
  return Math.round(Math.min(hi, Math.max(lo, v)));
}

export function bytesOfText(text: string): Uint8Array {
  // ASCII/UTF-8 without TextEncoder (not every XS build has it).
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      c = 0x10000 + ((c - 0xd800) << 10) + (text.charCodeAt(++i) - 0xdc00);
    }
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return new Uint8Array(out);
}

