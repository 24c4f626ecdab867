// The entropy a module's chip gives (native/entropy) for scripts under xsnap, which has no RNG of its
// own to call: Math.random's bytes. These scripts measure what Digest costs, not how secret it is.

export function xsRandom(out: Uint8Array): void {
  for (let i = 0; i < out.length; i++) out[i] = (Math.random() * 256) | 0;
}
