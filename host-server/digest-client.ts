// The client side of HTTP Digest (RFC 7616, SHA-256, qop=auth) as the host server speaks it to a
// module with a token (docs/security.md §Digest): the challenge read from a 401's WWW-Authenticate,
// then an Authorization for each request, the nonce count going up by one each time. The token is
// the password; the user name is free ("host-server").

import { createHash, randomBytes } from 'node:crypto';

export const DIGEST_USER = 'host-server';

type HeaderValue = string | string[] | undefined;

export interface DigestChallenge {
  realm: string;
  nonce: string;
  opaque: string | null;
  stale: boolean;
}

const PARAM = /\s*([A-Za-z0-9_-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^,\s]*)\s*,?/y;

/** The parameters of the `Digest` challenge among WWW-Authenticate values (joined by ', ' or not), or null. */
export function digestChallenge(header: HeaderValue): DigestChallenge | null {
  const text = Array.isArray(header) ? header.join(', ') : header ?? '';
  const at = text.search(/(^|[\s,])Digest\s/i);
  if (at < 0) return null;
  PARAM.lastIndex = text.indexOf('igest', at) + 'igest'.length;
  const p: Record<string, string> = {};
  for (let m = PARAM.exec(text); m && m[0] !== ''; m = PARAM.exec(text)) {
    p[m[1].toLowerCase()] = m[2].startsWith('"') ? m[2].slice(1, -1).replace(/\\(.)/g, '$1') : m[2];
  }
  const algorithm = (p.algorithm ?? 'MD5').toUpperCase();
  const qops = (p.qop ?? '').split(',').map((q) => q.trim());
  if (algorithm !== 'SHA-256' || !qops.includes('auth') || p.nonce === undefined || p.realm === undefined) return null;
  return { realm: p.realm, nonce: p.nonce, opaque: p.opaque ?? null, stale: (p.stale ?? '').toLowerCase() === 'true' };
}

/** A 401's WWW-Authenticate offers Bearer. */
export function offersBearer(header: HeaderValue): boolean {
  const text = Array.isArray(header) ? header.join(', ') : header ?? '';
  return /(^|[\s,])Bearer(\s|,|$)/i.test(text);
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const quote = (s: string): string => '"' + s.replace(/["\\]/g, '\\$&') + '"';

export class DigestClient {
  private challenge: DigestChallenge | null = null;
  private nc = 0;
  private readonly cnonce = randomBytes(16).toString('hex');

  constructor(private readonly password: string, private readonly user = DIGEST_USER) {}

  /** A nonce is known: requests can carry Digest at once. */
  get ready(): boolean {
    return this.challenge !== null;
  }

  /** The last challenge said the nonce sent was stale (the token was right). */
  get stale(): boolean {
    return this.challenge?.stale === true;
  }

  /** Takes the Digest challenge of a 401 (a new nonce, the count from 1 again); false when it has none. */
  learn(header: HeaderValue): boolean {
    const c = digestChallenge(header);
    if (c === null) return false;
    this.challenge = c;
    this.nc = 0;
    return true;
  }

  /** The Authorization value for `method` on `uri` (the request target: path and query). */
  authorization(method: string, uri: string): string {
    const c = this.challenge;
    if (c === null) throw new Error('no Digest challenge yet');
    const nc = (++this.nc).toString(16).padStart(8, '0');
    const ha1 = sha256(`${this.user}:${c.realm}:${this.password}`);
    const ha2 = sha256(`${method}:${uri}`);
    const response = sha256(`${ha1}:${c.nonce}:${nc}:${this.cnonce}:auth:${ha2}`);
    return `Digest username=${quote(this.user)}, realm=${quote(c.realm)}, nonce=${quote(c.nonce)}, uri=${quote(uri)}, ` +
      `algorithm=SHA-256, qop=auth, nc=${nc}, cnonce=${quote(this.cnonce)}, response=${quote(response)}` +
      (c.opaque !== null ? `, opaque=${quote(c.opaque)}` : '');
  }
}
