// The chunked transfer coding (RFC 9112 §7.1), decoded on its own in the manner of picohttpparser's
// phr_decode_chunked: fed any split of the bytes after a request head, it appends the chunk data to
// the body buffer and stops at the end of the last chunk's trailer section. The framing is checked
// strictly: hex sizes of at most 8 digits, CRLF line ends only, chunk extensions by the grammar of
// §7.1.1, trailer fields by the field-line grammar.

import { BODY_MAX, CHUNK_EXT_MAX, HEADER_BLOCK_MAX } from './http-limits';
import type { ByteBuffer } from './byte-buffer';
import { hexValue, isTchar } from './syntax';

/** decode() results. */
export const CHUNKS_NEED_MORE = 0;
export const CHUNKS_DONE = 1;
export const CHUNKS_FAILED = 2;

const CR = 13;
const LF = 10;
const SP = 32;
const HT = 9;
const SEMI = 59;
const EQUALS = 61;
const DQUOTE = 34;
const BACKSLASH = 92;
const COLON = 58;

// States. chunk = chunk-size [ chunk-ext ] CRLF chunk-data CRLF;
// chunk-ext = *( BWS ";" BWS ext-name [ BWS "=" BWS ext-val ] ), ext-val = token / quoted-string.
const SIZE = 0;
const EXT_BEFORE_SEMI = 1; // BWS after the size or an extension, ";" must follow
const EXT_BEFORE_NAME = 2;
const EXT_NAME = 3;
const EXT_AFTER_NAME = 4; // BWS after a name: "=" or ";" must follow
const EXT_BEFORE_VALUE = 5;
const EXT_TOKEN = 6;
const EXT_QUOTED = 7;
const EXT_QUOTED_PAIR = 8;
const EXT_AFTER_QUOTE = 9;
const SIZE_LF = 10;
const DATA = 11;
const DATA_CR = 12;
const DATA_LF = 13;
const TRAILER_START = 14;
const TRAILER_NAME = 15;
const TRAILER_VALUE = 16;
const TRAILER_LF = 17;
const END_LF = 18;

/** Is b allowed inside a quoted-string as itself (qdtext: HTAB, SP, VCHAR but " and \, obs-text)? */
function isQdtext(b: number): boolean {
  return b === HT || (b >= SP && b !== DQUOTE && b !== BACKSLASH && b !== 127);
}

export class ChunkedDecoder {
  errorStatus = 0;
  errorMessage = '';
  /** Bytes used by the last decode(). */
  consumed = 0;
  private state = SIZE;
  private remaining = 0; // bytes left in the current chunk, or its size while the size line arrives
  private digits = 0;
  private extLength = 0;
  private trailerBytes = 0;

  reset(): void {
    this.state = SIZE;
    this.remaining = 0;
    this.digits = 0;
    this.extLength = 0;
    this.trailerBytes = 0;
    this.errorStatus = 0;
    this.errorMessage = '';
    this.consumed = 0;
  }

  /** Decode data[start, end) into `body`. CHUNKS_DONE after the final CRLF; `consumed` says how far. */
  decode(data: Uint8Array, start: number, end: number, body: ByteBuffer): number {
    let i = start;
    let result = CHUNKS_NEED_MORE;
    while (i < end) {
      if (this.state === DATA) {
        let n = end - i;
        if (n > this.remaining) n = this.remaining;
        body.append(data, i, i + n);
        i += n;
        this.remaining -= n;
        if (this.remaining === 0) this.state = DATA_CR;
        continue;
      }
      result = this.step(data[i], body);
      if (result === CHUNKS_FAILED) break;
      i++;
      if (result === CHUNKS_DONE) break;
    }
    this.consumed = i - start;
    return result;
  }

  private fail(status: number, message: string): number {
    this.errorStatus = status;
    this.errorMessage = message;
    return CHUNKS_FAILED;
  }

  /** One byte of framing. */
  private step(b: number, body: ByteBuffer): number {
    switch (this.state) {
      case SIZE: return this.sizeByte(b, body);
      case EXT_BEFORE_SEMI:
      case EXT_AFTER_NAME:
      case EXT_BEFORE_NAME:
      case EXT_BEFORE_VALUE:
      case EXT_NAME:
      case EXT_TOKEN:
      case EXT_QUOTED:
      case EXT_QUOTED_PAIR:
      case EXT_AFTER_QUOTE:
        if (++this.extLength > CHUNK_EXT_MAX) return this.fail(400, `chunk extensions longer than ${CHUNK_EXT_MAX} bytes`);
        return this.extensionByte(b);
      case SIZE_LF:
        if (b !== LF) return this.fail(400, 'chunk size line not ended by CRLF');
        this.state = this.remaining === 0 ? TRAILER_START : DATA;
        return CHUNKS_NEED_MORE;
      case DATA_CR:
        if (b !== CR) return this.fail(400, 'chunk data not followed by CRLF');
        this.state = DATA_LF;
        return CHUNKS_NEED_MORE;
      case DATA_LF:
        if (b !== LF) return this.fail(400, 'chunk data not followed by CRLF');
        this.state = SIZE;
        this.digits = 0;
        this.remaining = 0;
        return CHUNKS_NEED_MORE;
      case END_LF:
        if (b !== LF) return this.fail(400, 'chunked body not ended by CRLF');
        return CHUNKS_DONE;
      default: return this.trailerByte(b);
    }
  }

  private sizeByte(b: number, body: ByteBuffer): number {
    const h = hexValue(b);
    if (h >= 0) {
      // More than 8 hex digits would overflow 32 bits: malformed, not merely large.
      if (++this.digits > 8) return this.fail(400, 'chunk size overflows 32 bits');
      this.remaining = this.remaining * 16 + h;
      return CHUNKS_NEED_MORE;
    }
    if (this.digits === 0) return this.fail(400, 'malformed chunk size');
    if (body.length + this.remaining > BODY_MAX) return this.fail(413, `body longer than ${BODY_MAX} bytes`);
    this.extLength = 0;
    if (b === CR) this.state = SIZE_LF;
    else if (b === SEMI) this.state = EXT_BEFORE_NAME;
    else if (b === SP || b === HT) this.state = EXT_BEFORE_SEMI;
    else return this.fail(400, 'malformed chunk size');
    return CHUNKS_NEED_MORE;
  }

  /** chunk-ext, one byte at a time. */
  private extensionByte(b: number): number {
    const state = this.state;
    const ws = b === SP || b === HT;
    if (state === EXT_QUOTED) {
      if (b === DQUOTE) this.state = EXT_AFTER_QUOTE;
      else if (b === BACKSLASH) this.state = EXT_QUOTED_PAIR;
      else if (!isQdtext(b)) return this.fail(400, 'malformed quoted-string in a chunk extension');
      return CHUNKS_NEED_MORE;
    }
    if (state === EXT_QUOTED_PAIR) {
      if (b !== HT && (b < SP || b === 127)) return this.fail(400, 'malformed quoted-pair in a chunk extension');
      this.state = EXT_QUOTED;
      return CHUNKS_NEED_MORE;
    }
    if (ws) {
      if (state === EXT_NAME) this.state = EXT_AFTER_NAME;
      else if (state === EXT_TOKEN || state === EXT_AFTER_QUOTE) this.state = EXT_BEFORE_SEMI;
      return CHUNKS_NEED_MORE;
    }
    if (b === CR && (state === EXT_NAME || state === EXT_TOKEN || state === EXT_AFTER_QUOTE)) {
      // The line ends right after a name or a value: not after white space, a bare ";" or "=".
      this.state = SIZE_LF;
      return CHUNKS_NEED_MORE;
    }
    if (b === SEMI && state !== EXT_BEFORE_NAME && state !== EXT_BEFORE_VALUE) {
      this.state = EXT_BEFORE_NAME;
      return CHUNKS_NEED_MORE;
    }
    if (b === EQUALS && (state === EXT_NAME || state === EXT_AFTER_NAME)) {
      this.state = EXT_BEFORE_VALUE;
      return CHUNKS_NEED_MORE;
    }
    if (state === EXT_BEFORE_VALUE && b === DQUOTE) {
      this.state = EXT_QUOTED;
      return CHUNKS_NEED_MORE;
    }
    if (isTchar(b)) {
      if (state === EXT_BEFORE_NAME || state === EXT_NAME) { this.state = EXT_NAME; return CHUNKS_NEED_MORE; }
      if (state === EXT_BEFORE_VALUE || state === EXT_TOKEN) { this.state = EXT_TOKEN; return CHUNKS_NEED_MORE; }
    }
    return this.fail(400, 'malformed chunk extension');
  }

  /** trailer-section = *( field-line CRLF ) CRLF, counted against the header block limit. */
  private trailerByte(b: number): number {
    if (++this.trailerBytes > HEADER_BLOCK_MAX) return this.fail(431, `trailer fields longer than ${HEADER_BLOCK_MAX} bytes`);
    switch (this.state) {
      case TRAILER_START:
        if (b === CR) { this.state = END_LF; return CHUNKS_NEED_MORE; }
        if (!isTchar(b)) return this.fail(400, 'malformed trailer field');
        this.state = TRAILER_NAME;
        return CHUNKS_NEED_MORE;
      case TRAILER_NAME:
        if (b === COLON) this.state = TRAILER_VALUE;
        else if (!isTchar(b)) return this.fail(400, 'malformed trailer field');
        return CHUNKS_NEED_MORE;
      case TRAILER_VALUE:
        if (b === CR) this.state = TRAILER_LF;
        else if ((b < SP && b !== HT) || b === 127) return this.fail(400, 'control character in a trailer field');
        return CHUNKS_NEED_MORE;
      default: // TRAILER_LF
        if (b !== LF) return this.fail(400, 'trailer field not ended by CRLF');
        this.state = TRAILER_START;
        return CHUNKS_NEED_MORE;
    }
  }
}
Object.freeze(ChunkedDecoder.prototype);
