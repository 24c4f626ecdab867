// The fast path of the request parser: a head that arrives whole in one read (nearly every request)
// is checked by one regular expression and taken apart with string methods, all native under XS,
// where the byte-by-byte path (request-line.ts, field-line.ts) costs a bytecode step per byte: about
// 5,000 computrons less for a small GET. It accepts only what the byte path accepts, and hands back
// anything unusual (non-ASCII, Transfer-Encoding, absolute-form or `*` targets, CONNECT, other
// versions, a repeated Content-Length, a Host with odd characters, limits reached): the byte path
// then parses it and words the error. tests/whole-head.test.ts holds the two to the same results.

import { HEADER_BLOCK_MAX, HEADER_FIELDS_MAX, REQUEST_LINE_MAX } from './limits';

/** The longest head: request line, header block and their CRLFs (as request-parser.ts holds it). */
const HEAD_MAX = REQUEST_LINE_MAX + 2 + HEADER_BLOCK_MAX;
import type { HeadFields, HeadFraming } from './field-line';
import type { RequestLineFields } from './request-line';
import type { TextCodec } from '../util/text';

/**
 * Request line and field lines of RFC 9112 in their strict form: tchar names, visible-ASCII targets,
 * field values of visible ASCII, SP and HT, every line ended by CRLF, then the blank line. Sticky
 * and not anchored at the end: matched from the head's start, it stops at the blank line, and its
 * lastIndex is where the head ends (no separate search for the blank line).
 */
const HEAD_SYNTAX = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]+ \\/[!-~]* HTTP\\/1\\.[01]\\r\\n(?:[!#$%&'*+\\-.^_`|~0-9A-Za-z]+:[\\t -~]*\\r\\n)*\\r\\n";
/** Host: reg-name / IP-literal characters and a port (syntax.ts isHostChar). */
const HOST_SYNTAX = "^[0-9A-Za-z:[\\]\\-._~!$&'()*+,;=%]*$";

interface Patterns { readonly head: RegExp; readonly host: RegExp; readonly close: RegExp }

/**
 * The patterns, made once at run time and kept on the global object. They are not module data: a
 * RegExp preloaded into flash crashed the XS machine under mcsim (segmentation fault a few requests
 * in), so the preloaded module holds only their sources.
 */
function patterns(): Patterns {
  const g = globalThis as { wholeHeadPatterns?: Patterns };
  return g.wholeHeadPatterns ?? (g.wholeHeadPatterns = Object.freeze({
    head: new RegExp(HEAD_SYNTAX, 'y'), host: new RegExp(HOST_SYNTAX), close: /(?:^|,)[ \t]*close[ \t]*(?:,|$)/i,
  }));
}

/**
 * A bit per name length of the fields fieldLine() takes: host 4, origin and expect 6, connection 10,
 * authorization and if-none-match 13, content-length and sec-fetch-site 14, accept-encoding 15,
 * transfer-encoding 17, access-control-request-method 29.
 */
const ACTED_ON_LENGTHS = (1 << 4) | (1 << 6) | (1 << 10) | (1 << 13) | (1 << 14) | (1 << 15) | (1 << 17) | (1 << 29);

/**
 * The field name text[start, end) in lower case. The names fieldLine() takes, as they are usually written, are matched
 * by one compare (the switch keeps it to one: V8 reads a frozen table through a slow keyed load);
 * on Node a toLowerCase() of a name with capitals costs several times that.
 */
function fieldName(text: string, start: number, end: number): string {
  // Content-Length (every PUT) is compared in place: on Node a cut of 13 chars or more is a sliced
  // string, whose compare costs more than an indexOf.
  if (end - start === 14 && text.indexOf('Content-Length', start) === start) return 'content-length';
  const name = text.slice(start, end);
  switch (name.length) {
    case 4: if (name === 'Host') return 'host'; break;
    case 6: if (name === 'Origin') return 'origin'; break;
    case 10: if (name === 'Connection') return 'connection'; break;
    case 14: if (name === 'Sec-Fetch-Site') return 'sec-fetch-site'; break;
    case 15: if (name === 'Accept-Encoding') return 'accept-encoding'; break;
  }
  return name.toLowerCase();
}

/** Handed back to the byte path. */
export const NOT_HANDLED = -1;

/**
 * Index just past the blank line ending a head that starts at data[start], or -1 when it does not
 * end within data[start, end) in at most HEADER_FIELDS_MAX + 2 lines.
 */
export function wholeHeadEnd(data: Uint8Array, start: number, end: number): number {
  let lf = data.indexOf(10, start);
  for (let lines = 0; lf >= 0 && lf < end && lines < HEADER_FIELDS_MAX + 2; lines++) {
    if (lf >= start + 3 && data[lf - 1] === 13 && data[lf - 2] === 10 && data[lf - 3] === 13) return lf + 1;
    lf = data.indexOf(10, lf + 1);
  }
  return -1;
}

type Fields = RequestLineFields & HeadFields;

/**
 * A head that starts at data[start] and ends within this read, parsed into `out` and `framing`: the
 * index just past it, or NOT_HANDLED for the byte path (`out` may then hold some fields already).
 */
export function takeWholeHead(data: Uint8Array, start: number, end: number, codec: TextCodec, out: Fields, framing: HeadFraming): number {
  if (codec.latin1) {
    // One char per byte, the bytes after the head included: the pattern finds where the head ends,
    // at the bytes' offsets.
    const text = codec.latin1(data, start, end - start > HEAD_MAX ? start + HEAD_MAX : end);
    const re = patterns();
    const head = re.head;
    head.lastIndex = 0;
    return head.test(text) && parseWholeHead(text, head.lastIndex, out, framing, re) === 0 ? start + head.lastIndex : NOT_HANDLED;
  }
  const whole = wholeHeadEnd(data, start, end);
  if (whole < 0) return NOT_HANDLED;
  // The patterns are made at the first whole head, not at the first byte (as in the branch above):
  // a connection holding half a request makes nothing. UTF-8: a head with other than ASCII has more
  // bytes than chars, and is the byte path's.
  const re = patterns();
  const head = re.head;
  head.lastIndex = 0;
  const size = whole - start;
  const text = codec.decode(data.subarray(start, whole));
  return text.length === size && head.test(text) && head.lastIndex === size && parseWholeHead(text, size, out, framing, re) === 0
    ? whole : NOT_HANDLED;
}

/**
 * Parse the head that `text` starts with, `size` chars long and of the strict form (HEAD_SYNTAX),
 * into `out` and `framing`: 0 when done, NOT_HANDLED when the byte path must take it.
 */
function parseWholeHead(text: string, size: number, out: Fields, framing: HeadFraming, re: Patterns): number {
  const eol = text.indexOf('\n') - 1; // CRLF: the pattern let no bare LF in
  if (eol > REQUEST_LINE_MAX || size - eol - 2 > HEADER_BLOCK_MAX) return NOT_HANDLED;
  const sp = text.indexOf(' ');
  const method = methodOf(text, sp);
  if (method === 'CONNECT') return NOT_HANDLED;
  out.method = method;
  out.target = text.slice(sp + 1, eol - 9);
  out.versionMinor = text.charCodeAt(eol - 1) - 48;
  framing.reset();
  let fields = 0;
  for (let p = eol + 2; p < size - 2; fields++) {
    // The pattern let no LF in but after a CR: one char is searched for (on Node a two-char search
    // costs half as much again).
    const e = text.indexOf('\n', p) - 1;
    const colon = text.indexOf(':', p);
    if (fields === HEADER_FIELDS_MAX) return NOT_HANDLED;
    // Only the few fields the server acts on are taken apart; a name of another length is skipped
    // without a slice (User-Agent, Accept, Content-Type...).
    const length = colon - p;
    if (length < 32 && (ACTED_ON_LENGTHS >> length) & 1 &&
      fieldLine(fieldName(text, p, colon), fieldValue(text, colon + 1, e), out, framing, re)) {
      return NOT_HANDLED;
    }
    p = e + 2;
  }
  return 0;
}

/**
 * The method, as the constant string itself when it is GET or PUT (nearly every request): no slice is
 * made, and the method's later compares are by identity on Node (a fresh string is compared by content).
 */
function methodOf(text: string, sp: number): string {
  if (sp === 3 && text.charCodeAt(2) === 84) { // ??T
    const first = text.charCodeAt(0);
    const second = text.charCodeAt(1);
    if (first === 71 && second === 69) return 'GET';
    if (first === 80 && second === 85) return 'PUT';
  }
  return text.slice(0, sp);
}

/** A field value from `start` to `end` without its surrounding SP and HT: trim() only when there are others than the usual one space after the colon. */
function fieldValue(text: string, start: number, end: number): string {
  if (text.charCodeAt(start) === 32) start++;
  const value = text.slice(start, end);
  const last = value.length - 1;
  return last >= 0 && (value.charCodeAt(0) <= 32 || value.charCodeAt(last) <= 32) ? value.trim() : value;
}

/** One field: false when taken, true when the byte path must parse the head. */
function fieldLine(name: string, value: string, out: Fields, framing: HeadFraming, re: Patterns): boolean {
  switch (name) {
    case 'host':
      if (++framing.hosts > 1 || !re.host.test(value)) return true;
      out.host = value;
      return false;
    case 'content-length':
      if (framing.contentLength >= 0) return true;
      framing.contentLength = decimal(value);
      return framing.contentLength < 0;
    case 'transfer-encoding':
      return true;
    case 'connection':
      if (re.close.test(value)) framing.connectionClose = true;
      return false;
    case 'expect':
      if (value.toLowerCase() === '100-continue') framing.expectContinue = true;
      return false;
    case 'origin': out.origin = value; return false;
    case 'sec-fetch-site': out.secFetchSite = value; return false;
    case 'authorization': out.authorization = value; return false;
    case 'accept-encoding': out.acceptEncoding = value; return false;
    case 'if-none-match': out.ifNoneMatch = value; return false;
    case 'access-control-request-method': out.accessControlRequestMethod = value; return false;
  }
  return false;
}

/**
 * A Content-Length value: its digits read in place (a regex and Number cost more on Node), leading
 * zeros allowed, a huge value held at 1e12 (far over the body limit anyway: 413, as on the byte
 * path); -1 when it is empty or not all digits.
 */
function decimal(value: string): number {
  if (value.length === 0) return -1;
  let n = 0;
  for (let i = 0; i < value.length; i++) {
    const d = value.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n < 1e12 ? n : 1e12;
}
