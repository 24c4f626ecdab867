// Types of native/entropy/entropy.js (mcconfig maps the `entropy` specifier here for tsc).

export default function fillRandom(buffer: ArrayBuffer | Uint8Array): void;
