// SHA-256 under Node (hal/types.ts Sha256): node:crypto, fed text as UTF-8 as crypt's Digest is on a
// module. The simulator's firmware images, and the HTTP Digest of the simulator and the host server
// (their --auth option, checked here for both command lines), whose nonces are sealed with a secret
// from node:crypto's random bytes (a module takes it from its chip: native/entropy).

import { createHash, randomFillSync } from 'node:crypto';
import type { Sha256 } from '../hal/types';
import { AUTH_MODES, type AccessOptions } from '../src/api/access/access';

export function nodeSha256(): Sha256 {
  const h = createHash('sha256');
  return { write: (b) => { h.update(b); }, close: () => new Uint8Array(h.digest()) };
}

/** Random bytes for the Digest nonces' secret (AccessOptions.random). */
export function nodeRandom(out: Uint8Array): void {
  randomFillSync(out);
}

/** --auth: how the token may come (AUTH_MODES), and the SHA-256 and entropy its Digest needs; `fail` makes the usage error. */
export function authOption(auth: string | undefined, token: string | undefined, fail: (why: string) => Error): AccessOptions {
  if (auth !== undefined && AUTH_MODES.indexOf(auth) < 0) throw fail(`--auth is one of ${AUTH_MODES.join(', ')}, got '${auth}'`);
  if (auth !== undefined && token === undefined) throw fail('--auth needs --token');
  return { auth: auth ?? 'any', sha256: nodeSha256, random: nodeRandom };
}
