// The names and data of a DNS-SD announcement in wire form (RFC 1035 §3.1, RFC 6763 §6): names made
// once from text when a module is (re)named, never per packet.

/** Wire form of the dotted ASCII name `text` (`brainstem-1.local`), each label cut to 63 bytes. */
export function wireName(text: string): Uint8Array {
  const out = new Uint8Array(Math.min(text.length + 2, 255));
  let len = 0;
  let at = 0;
  while (at <= text.length) {
    let dot = text.indexOf('.', at);
    if (dot < 0) dot = text.length;
    const n = Math.min(dot - at, 63, out.length - len - 2);
    if (n > 0) {
      out[len++] = n;
      for (let i = 0; i < n; i++) out[len++] = text.charCodeAt(at + i) & 0x7f;
    }
    at = dot + 1;
  }
  out[len++] = 0;
  return out.subarray(0, len);
}

/** `key=value` strings as TXT data (RFC 6763 §6): one length byte each, at most 255 bytes. */
export function txtData(pairs: { readonly [key: string]: string }): Uint8Array {
  const keys = Object.keys(pairs);
  let size = 0;
  for (let k = 0; k < keys.length; k++) size += 1 + Math.min(255, keys[k].length + 1 + pairs[keys[k]].length);
  const out = new Uint8Array(size || 1); // an empty TXT is one zero byte (RFC 6763 §6.1)
  let at = 0;
  for (let k = 0; k < keys.length; k++) {
    const s = keys[k] + '=' + pairs[keys[k]];
    const n = Math.min(255, s.length);
    out[at++] = n;
    for (let i = 0; i < n; i++) out[at++] = s.charCodeAt(i) & 0xff;
  }
  return out;
}

/** The four bytes of a dotted IPv4 address, or null when `text` is not one. */
export function ipv4Bytes(text: string): Uint8Array | null {
  const out = new Uint8Array(4);
  let part = 0;
  let value = -1;
  for (let i = 0; i <= text.length; i++) {
    const c = i === text.length ? 46 : text.charCodeAt(i);
    if (c === 46) {
      if (value < 0 || part > 3) return null;
      out[part++] = value;
      value = -1;
    } else if (c >= 48 && c <= 57 && value < 256) {
      value = (value < 0 ? 0 : value * 10) + c - 48;
      if (value > 255) return null;
    } else {
      return null;
    }
  }
  return part === 4 ? out : null;
}

/** `base`, or `base-N` for N >= 2, within one 63-byte label (RFC 6762 §9: the name after a conflict). */
export function numberedName(base: string, n: number): string {
  if (n < 2) return base.slice(0, 63);
  const suffix = '-' + n;
  return base.slice(0, 63 - suffix.length) + suffix;
}
