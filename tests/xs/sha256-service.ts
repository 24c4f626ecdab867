// The Node side of the SHA-256 that scripts under xsnap use in place of crypt's Digest (tests/xs/xs-sha256.ts).

import { createHash } from 'node:crypto';

/**
 * The parent's half of tests/xs/xs-sha256.ts: 'W' and bytes feed the running SHA-256; 'C' answers its
 * 32 bytes and starts the next one.
 */
export function sha256Service(): (bytes: Uint8Array) => Uint8Array {
  let h = createHash('sha256');
  return (bytes) => {
    if (bytes[0] === 0x57) {
      h.update(bytes.subarray(1));
      return new Uint8Array(0);
    }
    const digest = new Uint8Array(h.digest());
    h = createHash('sha256');
    return digest;
  };
}
