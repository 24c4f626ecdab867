// SHA-256 on a module (hal/types.ts Sha256): the SDK's crypt Digest (modules/crypt/digest/crypt.js,
// native: its state is a host chunk of the XS heap, not slots). A string is fed as its UTF-8 bytes
// (modCrypt.c xs_crypt_Digest_write). Firmware images and the HTTP Digest of access control.

import { Digest } from 'crypt';
import type { Sha256 } from '../types';

export function deviceSha256(): Sha256 {
  const d = new Digest('SHA256');
  return { write: (b) => d.write(b as unknown as ArrayBuffer), close: () => new Uint8Array(d.close()) };
}
