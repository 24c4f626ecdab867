'use strict';
// HTTP Digest (RFC 7616, SHA-256, qop=auth) for the console, inlined before console.js: the token is
// the password and never leaves the page, only a hash of it bound to the module's nonce, a count and
// the request line. A page served over plain HTTP from an IP address is not a secure context, so
// crypto.subtle is absent: this SHA-256 (FIPS 180-4) is the page's own.

const SHA_K = [];
const SHA_H = [];
(() => {
  // The first 32 bits of the fractional parts of the square roots (H) and cube roots (K) of the first primes.
  const frac = (x) => ((x - Math.floor(x)) * 4294967296) >>> 0;
  for (let n = 2; SHA_K.length < 64; n++) {
    let prime = true;
    for (let d = 2; d * d <= n; d++) if (n % d === 0) prime = false;
    if (!prime) continue;
    if (SHA_H.length < 8) SHA_H.push(frac(Math.sqrt(n)));
    SHA_K.push(frac(Math.cbrt(n)));
  }
})();

// The SHA-256 of a text's UTF-8 bytes, as lower-case hex.
function sha256(text) {
  const ror = (x, n) => (x >>> n) | (x << (32 - n));
  const bytes = new TextEncoder().encode(text);
  const m = new Uint8Array(((bytes.length + 72) >> 6) << 6);
  m.set(bytes);
  m[bytes.length] = 0x80;
  const view = new DataView(m.buffer);
  view.setUint32(m.length - 4, bytes.length * 8);
  const h = SHA_H.slice();
  const w = new Array(64);
  for (let o = 0; o < m.length; o += 64) {
    for (let i = 0; i < 64; i++) {
      if (i < 16) w[i] = view.getUint32(o + 4 * i);
      else w[i] = (ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >>> 3)) + w[i - 16] + (ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >>> 10)) + w[i - 7] | 0;
    }
    const v = h.slice();
    for (let i = 0; i < 64; i++) {
      const [a, b, c, d, e, f, g] = v;
      const t1 = v[7] + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + SHA_K[i] + w[i] | 0;
      const t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c)) | 0;
      v.pop();
      v.unshift(t1 + t2 | 0);
      v[4] = d + t1 | 0;
    }
    for (let i = 0; i < 8; i++) h[i] = h[i] + v[i] | 0;
  }
  return h.map((x) => (x >>> 0).toString(16).padStart(8, '0')).join('');
}

// The Digest challenge among a 401's WWW-Authenticate values (fetch joins them with ', '), or null.
function digestChallenge(header) {
  const at = (header || '').search(/Digest\s/i);
  if (at < 0) return null;
  const p = {};
  const re = /\s*([\w-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))\s*,?/y;
  re.lastIndex = at + 7;
  for (let r = re.exec(header); r; r = re.exec(header)) p[r[1].toLowerCase()] = r[2] !== undefined ? r[2].replace(/\\(.)/g, '$1') : r[3];
  return p.nonce && /sha-256/i.test(p.algorithm || '') ? { realm: p.realm, nonce: p.nonce, stale: /true/i.test(p.stale || ''), nc: 0 } : null;
}

// The Authorization value for `method` on `uri` (path and query), the next count of the challenge's nonce.
function digestAuthorization(challenge, password, method, uri) {
  const q = (s) => '"' + String(s).replace(/["\\]/g, '\\$&') + '"';
  const nc = (++challenge.nc).toString(16).padStart(8, '0');
  const cnonce = sha256(String(Math.random()) + Date.now()).slice(0, 16);
  const ha1 = sha256('console:' + challenge.realm + ':' + password);
  const response = sha256(ha1 + ':' + challenge.nonce + ':' + nc + ':' + cnonce + ':auth:' + sha256(method + ':' + uri));
  return 'Digest username="console", realm=' + q(challenge.realm) + ', nonce=' + q(challenge.nonce) + ', uri=' + q(uri) +
    ', algorithm=SHA-256, qop=auth, nc=' + nc + ', cnonce=' + q(cnonce) + ', response=' + q(response);
}
