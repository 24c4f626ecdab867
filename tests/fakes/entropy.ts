// Fake of the `entropy` module (native/entropy/entropy.js): the chip's random bytes, from node:crypto.

import { randomFillSync } from 'node:crypto';

export default function fillRandom(buffer: ArrayBuffer | Uint8Array): void {
  randomFillSync(buffer instanceof Uint8Array ? buffer : new Uint8Array(buffer));
}
