// The regular expressions of the request parser, kept as sources: a RegExp preloaded into flash
// crashed the XS machine under mcsim (segmentation fault a few requests in), so the preloaded modules
// hold only the sources, and patterns() makes the RegExps once at run time, on the global object.

/**
 * Request line and field lines of RFC 9112 in their strict form: tchar names, visible-ASCII targets,
 * field values of visible ASCII, SP and HT, every line ended by CRLF, then the blank line. Sticky
 * and not anchored at the end: matched from the head's start, it stops at the blank line, and its
 * lastIndex is where the head ends (no separate search for the blank line). The fast path's.
 */
const HEAD_SYNTAX = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]+ \\/[!-~]* HTTP\\/1\\.[01]\\r\\n(?:[!#$%&'*+\\-.^_`|~0-9A-Za-z]+:[\\t -~]*\\r\\n)*\\r\\n";
/** Host: reg-name / IP-literal characters and a port (RFC 3986). */
const HOST_SYNTAX = "^[0-9A-Za-z:[\\]\\-._~!$&'()*+,;=%]*$";
/** Connection: the `close` token in a comma-separated list (ASCII case ignored: flag i). */
const CLOSE_SYNTAX = '(?:^|,)[ \\t]*close[ \\t]*(?:,|$)';

export interface Patterns { readonly head: RegExp; readonly host: RegExp; readonly close: RegExp }

export function patterns(): Patterns {
  const g = globalThis as { requestPatterns?: Patterns };
  return g.requestPatterns ?? (g.requestPatterns = Object.freeze({
    head: new RegExp(HEAD_SYNTAX, 'y'), host: new RegExp(HOST_SYNTAX), close: new RegExp(CLOSE_SYNTAX, 'i'),
  }));
}
