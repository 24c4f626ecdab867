// Access control (docs/api.md §Access control), shared by the simulator and the module: the Host
// check against DNS rebinding, cross-site refusal of PUTs and actions, CORS by a list of origins, and
// an optional token, sent as HTTP Digest (src/api/access/digest-auth.ts) or, unless the operator
// refuses it, as a bearer token, with a lockout after repeated wrong tokens or digests from one address.
// One AccessControl per Api; its only mutable state is the small fixed lockout and nonce tables.

import { ApiError, aErrPermission } from '../../../hal/kit/errors';
import { HOST_ALWAYS, HOST_REFUSED, hostStanding, sameName } from './host-check';
import { LockoutTable, LOCKOUT_MS } from './lockout';
import { DigestAuth, DIGEST_OK, DIGEST_STALE, DIGEST_WRONG } from './digest-auth';
import { ACCESS_ACT, ACCESS_OPEN, ACCESS_UPDATE } from './doors';
import { CLIENT_BROWSER, CLIENT_PROOF, PROOF_HEADER } from '../../http/client-marks';
import type { HttpRequest } from '../../http/request';
import type { ModuleHal, Sha256 } from '../../../hal/types';

export interface AccessOptions {
  /** Bearer token required for PUTs and actions ('' or absent: none). Never echoed by any answer. */
  token?: string;
  /** Require the token for reads (GET, HEAD) too. */
  tokenReads?: boolean;
  /** 'digest': the token only as HTTP Digest, Bearer refused; 'any' (the default): Digest or Bearer. */
  auth?: string;
  /** SHA-256 for Digest (crypt's Digest on a module, node:crypto in the simulator); needed when a token is set. */
  sha256?: () => Sha256;
  /** Fills its array from the platform's entropy source (the Digest nonces' secret); needed when a token is set. */
  random?: (out: Uint8Array) => void;
  /** Host names accepted besides IP literals, `localhost` and the modules' hostnames. */
  allowHosts?: readonly string[];
  /** Origins allowed by CORS (`*`: any, only when given explicitly). Empty: CORS off. */
  cors?: readonly string[];
  /** Monotonic milliseconds for the lockout (default Date.now; Time.ticks on the module). */
  ticks?: () => number;
}

const BEARER = 'bearer ';
const DIGEST = 'digest ';
const CHALLENGE = 'WWW-Authenticate: Bearer\r\n';
const CHALLENGE_INVALID = 'WWW-Authenticate: Bearer error="invalid_token"\r\n';
/** The values of AccessOptions.auth. */
export const AUTH_MODES = Object.freeze(['any', 'digest']);
const PREFLIGHT = '\r\nAccess-Control-Allow-Headers: Authorization, Content-Type, ' + PROOF_HEADER + '\r\nAccess-Control-Max-Age: 600\r\n';

/**
 * `given[start..]` equals `secret`, in a time that depends only on the secret's length: every
 * character is compared, the lengths are folded into the same accumulator, nothing exits early.
 */
export function constantTimeEquals(given: string, start: number, secret: string): boolean {
  let diff = (given.length - start) ^ secret.length;
  for (let i = 0; i < secret.length; i++) {
    // Past the end charCodeAt is NaN, and NaN | 0 is 0: no branch on the attacker's length.
    diff |= secret.charCodeAt(i) ^ (given.charCodeAt(start + i) | 0);
  }
  return diff === 0;
}

/** `text` starts with `prefix` (lower case) in any ASCII case. */
function startsWith(text: string, prefix: string): boolean {
  return text.length >= prefix.length && sameName(text, prefix.length, prefix);
}

function lowerAll(list: readonly string[] | undefined): readonly string[] {
  const out: string[] = [];
  if (!list) return Object.freeze(out);
  for (const s of list) {
    let end = s.length;
    while (end > 0 && s.charCodeAt(end - 1) === 47) end--; // `http://a.example/` is the origin http://a.example
    if (end > 0) out.push(s.slice(0, end).toLowerCase());
  }
  return Object.freeze(out);
}

export class AccessControl {
  private readonly token: string;
  private readonly tokenReads: boolean;
  private readonly hosts: readonly string[];
  private readonly origins: readonly string[];
  private readonly anyOrigin: boolean;
  private readonly ticks: () => number;
  private readonly lockout = new LockoutTable();
  /** Digest credentials (null without a token); `digestOnly`: Bearer refused. */
  private readonly digest: DigestAuth | null;
  private readonly digestOnly: boolean;
  /** The names the modules announced (lower case, '' for none), by module index. */
  private readonly announced: string[] = [];
  /** The last Host found HOST_ALWAYS (every request of a client repeats it): checked by one compare. */
  private alwaysHost: string | null = null;

  constructor(options?: AccessOptions) {
    this.token = options?.token ?? '';
    this.tokenReads = options?.tokenReads === true && this.token !== '';
    this.hosts = lowerAll(options?.allowHosts);
    this.origins = lowerAll(options?.cors);
    this.anyOrigin = this.origins.indexOf('*') >= 0;
    this.ticks = options?.ticks ?? Date.now;
    const auth = options?.auth ?? 'any';
    if (AUTH_MODES.indexOf(auth) < 0) throw new Error(`auth is one of ${AUTH_MODES.join(', ')}, not '${auth}'`);
    this.digestOnly = auth === 'digest';
    if (this.token !== '' && !options?.sha256) throw new Error('a token needs options.sha256: the token is sent as HTTP Digest');
    if (this.token !== '' && !options?.random) throw new Error('a token needs options.random: the entropy that seals its Digest nonces');
    this.digest = this.token !== '' ? new DigestAuth(this.token, options!.sha256!, options!.random!) : null;
  }

  /** Module `index` announced itself as `name` ('' when withdrawn). */
  setAnnouncedName(index: number, name: string): void {
    while (this.announced.length <= index) this.announced.push('');
    this.announced[index] = name.toLowerCase();
  }

  /** 403 unless the Host names this server (checked before anything is executed). */
  checkHost(req: HttpRequest, devices: readonly ModuleHal[]): void {
    const host = req.host;
    if (host === this.alwaysHost) return;
    const standing = hostStanding(host, this.hosts, devices, this.announced);
    if (standing === HOST_REFUSED) {
      throw new ApiError(aErrPermission, `Host '${host}' does not name this server; an operator can allow it`);
    }
    if (standing === HOST_ALWAYS) this.alwaysHost = host;
  }

  /**
   * The one door every request passes once its resource is known (src/api/access/doors.ts): nothing
   * more for an open resource; the cross-site rule and the token for a write; the token for a read
   * when reads are closed; a firmware update only where a token is set at all. Throws the refusal.
   */
  admit(req: HttpRequest, access: number, res: { extraHeaders: string }): void {
    if (access === ACCESS_OPEN) return;
    if (access === ACCESS_UPDATE && this.token === '') {
      throw new ApiError(aErrPermission, 'a firmware update needs a token: set one (simulator, host server: --token; module: ' +
        'config.http.token in its manifest, or mcconfig token=...) and send it as the password of HTTP Digest');
    }
    this.authorize(req, access === ACCESS_ACT || access === ACCESS_UPDATE, res);
  }

  /**
   * Before a request runs: cross-site refusal for a write (a PUT or an action), then the token for a
   * write, or for a read when reads are closed. Sets WWW-Authenticate or Retry-After on `extra`.
   */
  authorize(req: HttpRequest, write: boolean, res: { extraHeaders: string }): void {
    if (write) this.checkSite(req);
    if (this.token === '' || !(write || this.tokenReads)) return;
    const now = this.ticks();
    const wait = this.lockout.lockedFor(req.peer, now);
    if (wait > 0) {
      res.extraHeaders += 'Retry-After: ' + Math.ceil(wait / 1000) + '\r\n';
      throw new ApiError(aErrPermission, 'too many wrong tokens from this address; try again later', 429);
    }
    const auth = req.authorization;
    if (startsWith(auth, DIGEST)) {
      const verdict = this.digest!.check(req.method, req.target, auth, DIGEST.length, now);
      if (verdict === DIGEST_OK) return this.lockout.clear(req.peer);
      if (verdict === DIGEST_WRONG) this.lockout.fail(req.peer, now);
      res.extraHeaders += this.challenges(now, verdict === DIGEST_STALE, false);
      throw new ApiError(aErrPermission, verdict === DIGEST_WRONG ? 'the digest is not the token\'s' : this.digest!.problem, 401);
    }
    if (!startsWith(auth, BEARER) || this.digestOnly) {
      res.extraHeaders += this.challenges(now, false, false);
      throw new ApiError(aErrPermission, this.digestOnly ? 'this operation needs the token as HTTP Digest (SHA-256; Bearer is refused here)'
        : 'this operation needs the token: HTTP Digest (SHA-256) or Authorization: Bearer <token>', 401);
    }
    if (!constantTimeEquals(auth, BEARER.length, this.token)) {
      this.lockout.fail(req.peer, now);
      res.extraHeaders += this.challenges(now, false, true);
      throw new ApiError(aErrPermission, 'the bearer token is wrong', 401);
    }
    this.lockout.clear(req.peer);
  }

  /** The WWW-Authenticate lines of a 401: Digest first (a fresh nonce), then Bearer unless it is refused. */
  private challenges(now: number, stale: boolean, invalidBearer: boolean): string {
    const digest = this.digest!.challenge(now, stale);
    return this.digestOnly ? digest : digest + (invalidBearer ? CHALLENGE_INVALID : CHALLENGE);
  }

  /** CORS headers for an answer: only when the request carries an allowed Origin. */
  corsHeaders(req: HttpRequest): string {
    if (req.origin === '' || !this.corsAllowed(req.origin)) return '';
    return this.anyOrigin ? 'Access-Control-Allow-Origin: *\r\n'
      : 'Access-Control-Allow-Origin: ' + req.origin + '\r\nVary: Origin\r\n';
  }

  /** Preflight headers, only on a preflight (OPTIONS with Access-Control-Request-Method) from an allowed origin. */
  preflightHeaders(req: HttpRequest, allow: string): string {
    if (req.accessControlRequestMethod === '' || req.origin === '' || !this.corsAllowed(req.origin)) return '';
    return 'Access-Control-Allow-Methods: ' + allow + PREFLIGHT;
  }

  private corsAllowed(origin: string): boolean {
    if (this.anyOrigin) return true;
    for (let i = 0; i < this.origins.length; i++) {
      if (sameName(origin, origin.length, this.origins[i])) return true;
    }
    return false;
  }

  /**
   * A write from another site is refused unless its Origin is an allowed CORS origin. A browser's
   * write (src/http/client-marks.ts) must also show where it comes from: `Sec-Fetch-Site: same-origin`
   * or `none` (sent only to https and localhost), or the proof header, which a page on another
   * origin cannot send without a preflight this server refuses. Over plain HTTP at an address a
   * page elsewhere sends neither Origin nor Sec-Fetch-Site with an `<img>` or a form's GET.
   */
  private checkSite(req: HttpRequest): void {
    const origin = req.origin;
    if (origin !== '') {
      if (this.corsAllowed(origin)) return;
      if (!ownOrigin(origin, req.host)) {
        throw new ApiError(aErrPermission, `a write from origin ${origin} is refused; an operator can allow it (CORS)`);
      }
    }
    const site = req.secFetchSite;
    if (site === 'cross-site' || site === 'same-site') {
      throw new ApiError(aErrPermission, `a ${site} write is refused; an operator can allow its origin (CORS)`);
    }
    if (site === 'same-origin' || site === 'none') return;
    const marks = req.clientMarks ?? 0;
    if ((marks & CLIENT_PROOF) !== 0 || (origin === '' && site === '' && (marks & CLIENT_BROWSER) === 0)) return;
    throw new ApiError(aErrPermission, 'a browser sent this change without proof that it comes from this module\'s own page ' +
      '(a web page elsewhere could have sent it): use the console at /, or curl, or send the header ' + PROOF_HEADER);
  }
}
Object.freeze(AccessControl.prototype);

/** `origin` is http://<Host> (this server speaks plain HTTP), a default :80 in Host left out. */
function ownOrigin(origin: string, host: string): boolean {
  if (host === '' || origin.length <= 7 || !sameName(origin, 7, 'http://')) return false;
  let end = host.length;
  if (end > 3 && host.charCodeAt(end - 3) === 58 && host.charCodeAt(end - 2) === 56 && host.charCodeAt(end - 1) === 48) end -= 3;
  if (origin.length - 7 !== end) return false;
  for (let i = 0; i < end; i++) {
    let a = origin.charCodeAt(7 + i);
    let b = host.charCodeAt(i);
    if (a >= 65 && a <= 90) a += 32;
    if (b >= 65 && b <= 90) b += 32;
    if (a !== b) return false;
  }
  return true;
}

export { LOCKOUT_MS };
