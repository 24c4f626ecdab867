// The parameters of an `Authorization: Digest …` credential (RFC 7616 §3.4): a comma-separated list
// of `name=value`, each value a token or a quoted string (RFC 9110 §5.6.4, backslash escapes). One
// record per AccessControl, filled in place by each request that carries Digest credentials.
// Device-side code: no Node, no regular expressions.

const DQUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const EQUALS = 61;

function isSpace(c: number): boolean {
  return c === 32 || c === 9;
}

/** tchar of RFC 9110 §5.6.2: a visible ASCII character but a delimiter. */
function isTokenChar(c: number): boolean {
  if (c <= 32 || c >= 127) return false;
  return '"(),/:;<=>?@[\\]{}'.indexOf(String.fromCharCode(c)) < 0;
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
   * of auth-params (an unclosed quote, a name without `=`): then the fields say nothing.
   */
  read(header: string, start: number): boolean {
    this.username = this.realm = this.nonce = this.uri = this.response = '';
    this.algorithm = this.qop = this.nc = this.cnonce = this.userhash = '';
    const n = header.length;
    let i = start;
    for (;;) {
      while (i < n && (isSpace(header.charCodeAt(i)) || header.charCodeAt(i) === COMMA)) i++;
      if (i >= n) return true;
      const nameStart = i;
      while (i < n && isTokenChar(header.charCodeAt(i))) i++;
      const name = header.slice(nameStart, i).toLowerCase();
      while (i < n && isSpace(header.charCodeAt(i))) i++;
      if (name === '' || header.charCodeAt(i) !== EQUALS) return false;
      i++;
      while (i < n && isSpace(header.charCodeAt(i))) i++;
      let value: string;
      if (header.charCodeAt(i) === DQUOTE) {
        const end = quotedEnd(header, i + 1);
        if (end < 0) return false;
        value = unquote(header, i + 1, end);
        i = end + 1;
      } else {
        const valueStart = i;
        while (i < n && isTokenChar(header.charCodeAt(i))) i++;
        value = header.slice(valueStart, i);
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
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === DQUOTE) return i;
  }
  return -1;
}

/** The text of a quoted string, its quoted-pairs resolved (the common case has none: one slice). */
function unquote(s: string, from: number, end: number): string {
  if (s.indexOf('\\', from) < 0 || s.indexOf('\\', from) > end) return s.slice(from, end);
  let out = '';
  for (let i = from; i < end; i++) {
    if (s.charCodeAt(i) === BACKSLASH) i++;
    out += s.charAt(i);
  }
  return out;
}
