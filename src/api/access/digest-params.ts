// The parameters of an `Authorization: Digest …` credential (RFC 7616 §3.4): a comma-separated list
// of `name=value`, each value a token or a quoted string (RFC 9110 §5.6.4, backslash escapes). One
// record per AccessControl, filled in place by each request that carries Digest credentials.
// Device-side code: no Node, no regular expressions (their matches would be garbage per request).

const DQUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;

function isSpace(c: number): boolean {
  return c === 32 || c === 9;
}

export class DigestParams {
  username = '';
  realm = '';
  nonce = '';
  uri = '';
  response = '';
  algorithm = '';
  qop = '';
  nc = '';
  cnonce = '';
  userhash = '';

  /**
   * Reads the list that starts at `header[start]` (just after `Digest `). False when it is not a list
   * of auth-params (an unclosed quote, a name without `=`): then the fields say nothing. Under XS each
   * charCodeAt of a string costs slots (the string is boxed), so the list is cut with indexOf and
   * slice, a few characters looked at per parameter.
   */
  read(header: string, start: number): boolean {
    this.username = this.realm = this.nonce = this.uri = this.response = '';
    this.algorithm = this.qop = this.nc = this.cnonce = this.userhash = '';
    const n = header.length;
    let i = start;
    for (;;) {
      while (i < n && (isSpace(header.charCodeAt(i)) || header.charCodeAt(i) === COMMA)) i++;
      if (i >= n) return true;
      const eq = header.indexOf('=', i);
      if (eq < 0) return false;
      const name = header.slice(i, eq).trim().toLowerCase();
      if (name === '' || name.indexOf(',') >= 0 || name.indexOf('"') >= 0) return false;
      i = eq + 1;
      while (i < n && isSpace(header.charCodeAt(i))) i++;
      let value: string;
      if (header.charCodeAt(i) === DQUOTE) {
        const end = quotedEnd(header, i + 1);
        if (end < 0) return false;
        value = unquote(header, i + 1, end);
        i = end + 1;
      } else {
        let end = header.indexOf(',', i);
        if (end < 0) end = n;
        value = header.slice(i, end).trim();
        if (value.indexOf(' ') >= 0 || value.indexOf('"') >= 0) return false;
        i = end;
      }
      this.set(name, value);
      while (i < n && isSpace(header.charCodeAt(i))) i++;
      if (i < n && header.charCodeAt(i) !== COMMA) return false;
    }
  }

  private set(name: string, value: string): void {
    switch (name) {
      case 'username': this.username = value; break;
      case 'realm': this.realm = value; break;
      case 'nonce': this.nonce = value; break;
      case 'uri': this.uri = value; break;
      case 'response': this.response = value; break;
      case 'algorithm': this.algorithm = value; break;
      case 'qop': this.qop = value; break;
      case 'nc': this.nc = value; break;
      case 'cnonce': this.cnonce = value; break;
      case 'userhash': this.userhash = value; break;
      default: break; // opaque, charset, username* and extensions: nothing this server acts on
    }
  }
}
Object.freeze(DigestParams.prototype);

/** Index of the quote that closes a quoted string whose text starts at `from`, or -1. */
function quotedEnd(s: string, from: number): number {
  for (let i = s.indexOf('"', from); i >= 0; i = s.indexOf('"', i + 1)) {
    let slashes = 0;
    while (s.charCodeAt(i - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return i;
  }
  return -1;
}

/** The text of a quoted string, its quoted-pairs resolved (the common case has none: one slice). */
function unquote(s: string, from: number, end: number): string {
  const slash = s.indexOf('\\', from);
  if (slash < 0 || slash > end) return s.slice(from, end);
  let out = '';
  for (let i = from; i < end; i++) {
    if (s.charCodeAt(i) === BACKSLASH) i++;
    out += s.charAt(i);
  }
  return out;
}
