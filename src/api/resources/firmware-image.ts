// What the firmware resource reads besides the image itself: the Content-Digest header (RFC 9530,
// `sha-256=:<base64>:`), and packed versions as text. Device-side code: no Node, no atob.

import { ApiError, aErrParam } from '../../../hal/kit/errors';

const SHA256_BYTES = 32;

/** The value of one base64 character, -1 for '=' padding or anything else. */
function sextet(c: number): number {
  if (c >= 65 && c <= 90) return c - 65; // A-Z
  if (c >= 97 && c <= 122) return c - 71; // a-z
  if (c >= 48 && c <= 57) return c + 4; // 0-9
  return c === 43 ? 62 : c === 47 ? 63 : -1; // + /
}

/** Standard base64 (RFC 4648 §4, padded or not) into bytes; null when malformed. */
export function base64Bytes(text: string): Uint8Array | null {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 61) end--;
  if (text.length - end > 2 || end % 4 === 1) return null;
  const out = new Uint8Array((end * 3) >> 2);
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < end; i++) {
    const v = sextet(text.charCodeAt(i));
    if (v < 0) return null;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

/** The SHA-256 a Content-Digest names (other algorithms beside it are ignored), or why it cannot. */
export function sha256OfDigest(header: string): Uint8Array | ApiError {
  const how = 'send Content-Digest: sha-256=:<base64 of the image\'s SHA-256>: (RFC 9530)';
  if (header === '') return new ApiError(aErrParam, 'a firmware image needs its digest: ' + how);
  const items = header.split(',');
  for (let i = 0; i < items.length; i++) {
    const item = items[i].trim();
    const eq = item.indexOf('=');
    if (eq < 0 || item.slice(0, eq).toLowerCase() !== 'sha-256') continue;
    const value = item.slice(eq + 1);
    const bytes = value.length > 2 && value.charCodeAt(0) === 58 && value.charCodeAt(value.length - 1) === 58
      ? base64Bytes(value.slice(1, -1)) : null;
    if (!bytes || bytes.length !== SHA256_BYTES) return new ApiError(aErrParam, `Content-Digest sha-256 is not 32 bytes of base64 between colons: ${how}`);
    return bytes;
  }
  return new ApiError(aErrParam, 'Content-Digest names no sha-256 digest: ' + how);
}

/** Two digests are the same bytes. */
export function sameDigest(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/** A packed version (hal/kit/version.ts) as `major.minor.patch`. */
export function versionText(packed: number): string {
  return (packed >>> 28) + '.' + ((packed >>> 24) & 0xf) + '.' + (packed & 0xffffff);
}
