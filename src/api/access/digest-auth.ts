// HTTP Digest (RFC 7616: SHA-256, qop=auth) with the token as the password and any user name
// (docs/security.md §Digest): the token never crosses the network, only a hash of it bound to a
// nonce, a count and the request line. Nonces need no table per client: each one carries the second
// it was issued and its issue number, sealed with a hash of a secret the server made at start from
// SECRET_BYTES of its platform's entropy (never sent, never shown); one is good for NONCE_MS. Each (nonce, nc) is taken once
// (src/api/access/nonce-record.ts). Device-side code: the SHA-256 comes from the platform (crypt's
// Digest on a module, node:crypto in the simulator); hex is written into fixed buffers, and the
// response is compared byte by byte in the same time whatever it is.

import type { Sha256 } from '../../../hal/types';
import { DigestParams } from './digest-params';
import { NonceRecord } from './nonce-record';

export const DIGEST_REALM = 'brainstem';
/** How long a nonce is good, in milliseconds. */
export const NONCE_MS = 300000;

/** The verdicts of DigestAuth.check. */
export const DIGEST_OK = 0;
/** The response is not the token's: counts toward the lockout. */
export const DIGEST_WRONG = 1;
/** The response is the token's, but its nonce is too old, not this server's or its nc was taken: stale=true. */
export const DIGEST_STALE = 2;
/** Not a credential this server reads (another algorithm, qop or realm, a field missing, another uri). */
export const DIGEST_UNREAD = 3;

/** Nonce: 8 hex digits of the second it was issued, 8 of its issue number, 32 of its seal. */
const STAMP_CHARS = 16;
const SEAL_BYTES = 16;
/** Random bytes in the seal's secret: 128 bits. */
const SECRET_BYTES = 16;
const NONCE_CHARS = STAMP_CHARS + 2 * SEAL_BYTES;
const DIGEST_BYTES = 32;

function hexDigit(v: number): number {
  return v < 10 ? 48 + v : 87 + v;
}

/** `bytes` as lower-case hex digits into `out` (2 a byte). */
function hexInto(bytes: Uint8Array, out: Uint8Array): Uint8Array {
  for (let i = 0; i < DIGEST_BYTES; i++) {
    out[2 * i] = hexDigit(bytes[i] >> 4);
    out[2 * i + 1] = hexDigit(bytes[i] & 15);
  }
  return out;
}

/**
 * text[start, start + 2 count) (`length` characters) is the hex of bytes[0, count), count a multiple
 * of 4: compared 32 bits at a time (8 hex digits read by parseInt: under XS each charCodeAt of a
 * string costs slots), in a time that depends only on count.
 */
function sameHex(bytes: Uint8Array, count: number, text: string, start: number, length: number): boolean {
  let diff = length ^ (2 * count);
  for (let i = 0; i < count; i += 4) {
    const mine = (bytes[i] << 24) | (bytes[i + 1] << 16) | (bytes[i + 2] << 8) | bytes[i + 3];
    const given = parseInt(text.slice(start + 2 * i, start + 2 * i + 8), 16);
    diff |= given === given ? mine ^ given : 1; // NaN: not hex
  }
  return diff === 0;
}

function hex8(n: number): string {
  const s = (n >>> 0).toString(16);
  return '00000000'.slice(s.length) + s;
}

/** text[start, start + 8) is 8 hex digits: their value, else -1. */
function hex8Value(text: string, start: number): number {
  const digits = text.slice(start, start + 8);
  const v = parseInt(digits, 16);
  return v === v && hex8(v) === digits.toLowerCase() ? v : -1;
}

export class DigestAuth {
  private readonly params = new DigestParams();
  private readonly record = new NonceRecord();
  private readonly ha1 = new Uint8Array(2 * DIGEST_BYTES);
  private readonly ha2 = new Uint8Array(2 * DIGEST_BYTES);
  private readonly secret: string;
  private issued = 0;
  /** Why the last check refused (DIGEST_UNREAD, DIGEST_STALE): the message of the 401. */
  problem = '';

  /**
   * `random` fills its array from the platform's entropy source (the chip's RNG on a module, node:crypto
   * on the desktop): not Math.random, which repeats from one boot to the next where rand() is never
   * seeded (xs/platforms/pico/xsHost.h:337).
   */
  constructor(private readonly token: string, private readonly sha256: () => Sha256, random: (out: Uint8Array) => void) {
    const bytes = new Uint8Array(SECRET_BYTES);
    random(bytes);
    let secret = '';
    for (let i = 0; i < SECRET_BYTES; i++) secret += String.fromCharCode(hexDigit(bytes[i] >> 4), hexDigit(bytes[i] & 15));
    this.secret = secret;
  }

  /** The Digest challenge line, with a nonce issued `now` (monotonic ms). */
  challenge(now: number, stale: boolean): string {
    const stamp = hex8(Math.floor(now / 1000)) + hex8(this.issued++);
    const seal = this.seal(stamp);
    let nonce = stamp;
    for (let i = 0; i < SEAL_BYTES; i++) nonce += String.fromCharCode(hexDigit(seal[i] >> 4), hexDigit(seal[i] & 15));
    return 'WWW-Authenticate: Digest realm="' + DIGEST_REALM + '", qop="auth", algorithm=SHA-256, nonce="' + nonce + '"' +
      (stale ? ', stale=true' : '') + '\r\n';
  }

  /** Judges the credentials in header[start..] (after `Digest `) for `method` and `target` at `now`. */
  check(method: string, target: string, header: string, start: number, now: number): number {
    const p = this.params;
    this.problem = this.unread(p, header, start, target);
    if (this.problem !== '') return DIGEST_UNREAD;
    this.hashInto(this.ha1, p.username, ':', p.realm, ':', this.token);
    this.hashInto(this.ha2, method, ':', p.uri, '', '');
    const h = this.sha256();
    h.write(this.ha1);
    h.write(':' + p.nonce + ':' + p.nc + ':' + p.cnonce + ':' + p.qop + ':');
    h.write(this.ha2);
    if (!sameHex(h.close(), DIGEST_BYTES, p.response, 0, p.response.length)) return DIGEST_WRONG;
    this.problem = this.staleness(p, now);
    return this.problem === '' ? DIGEST_OK : DIGEST_STALE;
  }

  /** Why these credentials are not read ('' when they are). */
  private unread(p: DigestParams, header: string, start: number, target: string): string {
    if (!p.read(header, start)) return 'the Digest credentials are not a list of name=value';
    if (p.realm !== DIGEST_REALM) return `the Digest realm is "${DIGEST_REALM}"`;
    if (p.algorithm.toLowerCase() !== 'sha-256') return 'the Digest algorithm here is SHA-256';
    if (p.qop !== 'auth') return 'the Digest qop here is auth';
    if (p.userhash.toLowerCase() === 'true') return 'userhash is not offered here';
    if (p.nc.length !== 8 || hex8Value(p.nc, 0) < 1 || p.cnonce === '' || p.nonce === '') return 'the Digest credentials need nonce, nc and cnonce';
    if (p.uri !== target) return 'the Digest uri is not this request\'s target';
    return '';
  }

  /** Why a nonce the token answered is no longer taken ('' when it is, and its nc is now used). */
  private staleness(p: DigestParams, now: number): string {
    const nonce = p.nonce;
    const second = hex8Value(nonce, 0);
    const issue = hex8Value(nonce, 8);
    if (nonce.length !== NONCE_CHARS || second < 0 || issue < 0 || !sameHex(this.seal(nonce), SEAL_BYTES, nonce, STAMP_CHARS, NONCE_CHARS - STAMP_CHARS)) {
      return 'the nonce is not one this server issued since it started';
    }
    const age = now - second * 1000;
    if (age < -1000 || age > NONCE_MS) return 'the nonce has expired';
    if (!this.record.take(issue, hex8Value(p.nc, 0))) return 'this nonce count was used before (a replay?)';
    return '';
  }

  /** The seal of the stamp in text[0, STAMP_CHARS) (a new stamp, or the nonce a client sent). */
  private seal(text: string): Uint8Array {
    const h = this.sha256();
    h.write(this.secret);
    h.write(text.length === STAMP_CHARS ? text : text.slice(0, STAMP_CHARS));
    return h.close();
  }

  private hashInto(out: Uint8Array, a: string, b: string, c: string, d: string, e: string): void {
    const h = this.sha256();
    h.write(a);
    h.write(b);
    h.write(c);
    if (d !== '') h.write(d);
    if (e !== '') h.write(e);
    hexInto(h.close(), out);
  }
}
Object.freeze(DigestAuth.prototype);
