// SHA-256 inside xsnap, standing in for crypt's Digest (native on a module: its work is no computrons
// of the script). Each write goes to the Node parent by issueCommand ('W' and the bytes, text as
// UTF-8 as crypt writes it), close asks for the digest ('C'); the parent hashes with node:crypto
// (tests/xs/xsnap-worker.ts sha256Service). One hash at a time, as access control uses it. The
// buffers made here to carry the bytes are counted in the XS figures: an upper bound of the device's,
// where a Digest's state is one host chunk.

import type { Sha256 } from '../../hal/types';

declare function issueCommand(message: ArrayBuffer): ArrayBuffer;

const CLOSE = Uint8Array.of(0x43).buffer;
const encoder = new TextEncoder();

const hash: Sha256 = {
  write(data: Uint8Array | string): void {
    if (typeof data === 'string') {
      issueCommand(encoder.encode('W' + data).buffer as ArrayBuffer);
      return;
    }
    const message = new Uint8Array(data.length + 1);
    message[0] = 0x57;
    message.set(data, 1);
    issueCommand(message.buffer);
  },
  close: (): Uint8Array => new Uint8Array(issueCommand(CLOSE)),
};

export const xsSha256 = (): Sha256 => hash;
