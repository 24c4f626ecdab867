// Helpers for the device HAL: addresses from the text `net` answers. The value guards are shared with
// the simulator: hal/kit/value-guards.ts.

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
  const parts = text.split(text.indexOf('-') >= 0 ? '-' : ':');
  if (parts.length !== 6) return out;
  for (let i = 0; i < 6; i++) {
    const n = parseInt(parts[i], 16);
    if (!(n >= 0 && n <= 255)) return new Uint8Array(6);
    out[i] = n;
  }
  return out;
}
