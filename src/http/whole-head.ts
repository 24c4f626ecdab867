// The fast path of the request parser: a head that arrives whole in one read (nearly every request)
// is checked by one regular expression (patterns.ts) and taken apart with string methods, all native under XS,
// where the byte-by-byte path (request-line.ts, field-line.ts) costs a bytecode step per byte: about
// 5,000 computrons less for a small GET. The fields themselves are read by the byte path's own reader
// (field-line.ts takeField). It accepts only what the byte path accepts, and hands back anything
// unusual (non-ASCII, absolute-form or `*` targets, CONNECT, other versions, a field the reader
// refuses, limits reached): the byte path then parses it and words the error.
// tests/whole-head.test.ts holds the two to the same results.

import { HEAD_MAX, HEADER_BLOCK_MAX, HEADER_FIELDS_MAX, REQUEST_LINE_MAX } from './http-limits';
import { ACTED_ON_LENGTHS, takeField, type HeadFields, type HeadFraming } from './field-line';
import { patterns } from './patterns';
import type { RequestLineFields } from './request-line';
import type { TextCodec } from '../../util/text';

/**
 * The field name text[start, end) in lower case. The names takeField() acts on, as they are usually written, are matched
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
    case 10:
      if (name === 'Connection') return 'connection';
      if (name === 'User-Agent') return 'user-agent';
      break;
    case 14: if (name === 'Sec-Fetch-Site') return 'sec-fetch-site'; break;
    case 15: if (name === 'Accept-Encoding') return 'accept-encoding'; break;
  }
  return name.toLowerCase();
}

/** Handed back to the byte path. */
export const NOT_HANDLED = -1;

type Fields = RequestLineFields & HeadFields;

/**
 * A head that starts at data[start] and ends within this read, parsed into `out` and `framing`: the
 * index just past it, or NOT_HANDLED for the byte path (`out` may then hold some fields already).
 * The read (at most HEAD_MAX bytes of it) becomes text in one native call, and the pattern, sticky
 * from the text's start, finds where the head ends: its lastIndex. It lets only ASCII in, one byte a
 * char in either codec, so that index is the bytes' offset too (a UTF-8 decoder's U+FFFD for a bad
 * byte is no ASCII either). No search for the blank line in script: on the chip a typed array's
 * indexOf and element reads cost about a thousand cycles a byte under XS.
 */
export function takeWholeHead(data: Uint8Array, start: number, end: number, codec: TextCodec, out: Fields, framing: HeadFraming): number {
  const stop = end - start > HEAD_MAX ? start + HEAD_MAX : end;
  const text = codec.latin1 ? codec.latin1(data, start, stop) : codec.decode(data.subarray(start, stop));
  // Half a head is the byte path's at once: a connection holding one makes no pattern (patterns.ts).
  if (text.indexOf('\r\n\r\n') < 0) return NOT_HANDLED;
  const head = patterns().head;
  head.lastIndex = 0;
  return head.test(text) && parseWholeHead(text, head.lastIndex, out, framing) === 0 ? start + head.lastIndex : NOT_HANDLED;
}

/**
 * Parse the head that `text` starts with, `size` chars long and of the strict form (HEAD_SYNTAX),
 * into `out` and `framing`: 0 when done, NOT_HANDLED when the byte path must take it.
 */
function parseWholeHead(text: string, size: number, out: Fields, framing: HeadFraming): number {
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
    // Only the few fields the server acts on are taken apart, by the byte path's own reader; a field
    // it refuses goes back to the byte path, which words the error.
    const length = colon - p;
    // The value without its surrounding blanks: the pattern let no blank but SP and HT into a value,
    // so trim() removes exactly those (two native calls; a call of a function of this file costs more).
    if (length < 32 && (ACTED_ON_LENGTHS >> length) & 1 && takeField(fieldName(text, p, colon), text.slice(colon + 1, e).trim(), out, framing)) {
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
