// Incremental HTTP/1.1 request parser over bytes (RFC 9112), in the manner of picohttpparser:
// the head is copied into a buffer until its blank line arrives, then parsed in one pass; the body
// (Content-Length, or chunked through ChunkedDecoder) is copied into a second buffer. Both buffers
// start small, grow only while a request needs it and shrink back after it (ByteBuffer). Only what the
// server needs is kept; every limit is checked as bytes arrive. Framing is strict: CRLF line ends only,
// a bare CR or LF is 400. A head whole in one read takes a native fast path (whole-head.ts).

import { BODY_MAX, HEAD_MAX, HEADER_BLOCK_MAX, HEADER_FIELDS_MAX, REQUEST_LINE_MAX } from './http-limits';
import type { HttpRequest, RequestBodySink, RequestHandler } from './request';
import { standardTextCodec, type TextCodec } from '../../util/text';
import { NOT_HANDLED, takeWholeHead } from './whole-head';
import { ByteBuffer } from './byte-buffer';
import { RequestHead } from './request-head';
import { CHUNKS_DONE, CHUNKS_FAILED, ChunkedDecoder } from './chunked-decoder';
import { parseRequestLine } from './request-line';
import { checkFraming, HeadFraming, parseFieldLine } from './field-line';

/** feed() results: more bytes are needed (the request is partial, or nothing has arrived yet). */
export const NEED_MORE = 0;
/** The head is parsed and a body follows: send `100 Continue` if `expectContinue`; feed the rest. */
export const BODY_FOLLOWS = 1;
/** A whole request is parsed: answer it, then reset() before the next. */
export const COMPLETE = 2;
/** The request is malformed: answer errorStatus and close. */
export const FAILED = 3;

/** The size a request buffer starts at when a head comes in pieces: 512 holds a typical head (curl ~100 B, fetch ~500 B). */
export const HEAD_INITIAL = 512;
export const BODY_INITIAL = 0;

const CR = 13, LF = 10;

// States.
const HEAD = 0, BODY = 1, CHUNKED = 2, DONE = 3, BROKEN = 4;

export class RequestParser extends RequestHead implements HttpRequest {
  /** Where the present body streams (RequestHandler.bodySink), or null: the body buffer. */
  sink: RequestBodySink | null = null;
  /** Asked for a sink when a body follows a head (the Connection's handler, when it streams bodies). */
  router: RequestHandler | null = null;
  /** Set once per connection by its owner (the transport's peer address); kept across requests. */
  peer = '';

  /** Bytes used by the last feed(): the rest belongs to the next request (pipelining). */
  consumed = 0;

  private state: number = HEAD;
  private readonly head = new ByteBuffer(HEAD_INITIAL, HEAD_MAX);
  // Made when a request first has a body (a chunked one): most connections never need them.
  private bodyBuffer: ByteBuffer | null = null;
  private chunks: ChunkedDecoder | null = null;
  private requestLineEnd = -1; // index of the LF ending the request line
  private lineStart = 0;
  private fieldCount = 0;
  private leadingCR = false; // a CR of an empty line before the request line, its LF still to come
  private remaining = 0; // bytes left in a Content-Length body
  private readonly framing: HeadFraming;
  private readonly codec: TextCodec | null;

  /** `codec`: for the fast path (null: byte path only). `framing` may be shared: a head is parsed within one feed(). */
  constructor(codec: TextCodec | null = standardTextCodec(), framing: HeadFraming = new HeadFraming()) {
    super();
    this.codec = codec;
    this.framing = framing;
  }

  /** Forget the last request and give back buffer room it needed. */
  reset(): void {
    const sink = this.sink;
    this.sink = null;
    if (sink && this.state !== DONE) sink.abort(); // its body never all came
    this.state = HEAD;
    this.clearHead();
    this.head.clear();
    if (this.bodyBuffer) this.bodyBuffer.clear();
    if (this.chunks) this.chunks.reset();
    this.requestLineEnd = -1;
    this.lineStart = 0;
    this.fieldCount = 0;
    this.leadingCR = false;
    this.remaining = 0;
  }

  /** Has any byte of this request arrived (for the header timeout)? */
  get started(): boolean {
    return this.state !== HEAD || this.head.length > 0;
  }

  /** Is the head parsed while body bytes are still to come? */
  get inBody(): boolean {
    return this.state === BODY || this.state === CHUNKED;
  }

  private bodyBytes(): ByteBuffer { return this.bodyBuffer ?? (this.bodyBuffer = new ByteBuffer(BODY_INITIAL, BODY_MAX)); }

  /** Bytes of buffer storage held now (head and body). */
  get bytesHeld(): number {
    return this.head.held + (this.bodyBuffer ? this.bodyBuffer.held : 0);
  }

  body(): Uint8Array {
    return this.bodyBytes().view();
  }

  bodyText(codec: TextCodec): string {
    return this.bodyBytes().text(codec);
  }

  /**
   * Consume bytes from data[start, end) and say what happened (NEED_MORE, BODY_FOLLOWS, COMPLETE or
   * FAILED); `consumed` says how many bytes were used. It stops after the head when a body follows,
   * at the end of a request, or at the first error, leaving the rest for the next call.
   */
  feed(data: Uint8Array, start: number, end: number): number {
    let i = start;
    let result = NEED_MORE;
    if (this.state === HEAD) {
      i = this.feedHead(data, i, end);
      if (this.inBody) result = BODY_FOLLOWS;
    } else if (this.state === BODY) {
      const n = end - i < this.remaining ? end - i : this.remaining;
      // A body that arrives whole in one read is answered before the next read: viewed, not copied.
      const b = this.sink ? null : this.bodyBytes();
      if (!b) this.sink!.write(data, i, i + n);
      else if (n === this.remaining && b.length === 0) b.lend(data, i, i + n);
      else b.append(data, i, i + n);
      i += n;
      this.remaining -= n;
      if (this.remaining === 0) this.state = DONE;
    } else if (this.state === CHUNKED) {
      const chunks = this.chunks ?? (this.chunks = new ChunkedDecoder());
      const r = chunks.decode(data, i, end, this.bodyBytes());
      i += chunks.consumed;
      if (r === CHUNKS_DONE) this.state = DONE;
      else if (r === CHUNKS_FAILED) this.fail(chunks.errorStatus, chunks.errorMessage);
    }
    this.consumed = i - start;
    if (this.state === DONE) return COMPLETE;
    if (this.state === BROKEN) return FAILED;
    return result;
  }

  private fail(status: number, message: string): void {
    this.state = BROKEN;
    this.errorStatus = status;
    this.errorMessage = message;
    this.keepAlive = false;
  }

  private failLength(): void {
    if (this.requestLineEnd < 0) this.fail(414, `request line longer than ${REQUEST_LINE_MAX} bytes`);
    else this.fail(431, `header block longer than ${HEADER_BLOCK_MAX} bytes`);
  }

  /** RFC 9112 §2.2: empty lines (CRLF only) before the request line are ignored. */
  private skipEmptyLines(data: Uint8Array, i: number, end: number): number {
    for (; i < end; i++) {
      const b = data[i];
      if (b === LF && this.leadingCR) this.leadingCR = false;
      else if (b === CR && !this.leadingCR) this.leadingCR = true;
      else if (this.leadingCR || b === LF) {
        this.fail(400, `bare ${this.leadingCR ? 'CR' : 'LF'} in the request head`);
        return i;
      } else return i;
    }
    return i;
  }

  /**
   * Copy head bytes into the head buffer and look for its end, a line at a time: the copy is one
   * native `set` and the line search one native `indexOf` per line, not a step per byte.
   */
  private feedHead(data: Uint8Array, i: number, end: number): number {
    const head = this.head;
    if (head.length === 0) {
      i = this.skipEmptyLines(data, i, end);
      if (i === end || this.state !== HEAD) return i;
      const whole = this.codec ? takeWholeHead(data, i, end, this.codec, this, this.framing) : NOT_HANDLED;
      if (whole > 0) {
        this.setFraming();
        return whole;
      }
      if (this.method) this.reset(); // fields taken before it gave up: the byte path starts from nothing
    }
    let appendedAt = head.length;
    while (i < end) {
      let lf = data.indexOf(LF, i);
      if (lf >= end) lf = -1;
      const take = lf < 0 ? end - i : lf + 1 - i;
      if (take > HEAD_MAX - head.length) {
        this.failLength();
        return i;
      }
      appendedAt = head.length;
      head.append(data, i, i + take);
      i += take;
      if (lf < 0) break;
      if (!this.endLine()) return i;
      if (this.state !== HEAD) return i;
    }
    // A line still arriving: refuse a bare CR, and hold it to the limits, now rather than when its
    // LF comes (which may be never).
    // Only the bytes just added (and the one before them) are new to this check.
    const bytes = head.bytes;
    for (let k = appendedAt > this.lineStart ? appendedAt - 1 : this.lineStart; k < head.length - 1; k++) {
      if (bytes[k] === CR) {
        this.fail(400, 'bare CR in the request head');
        return i;
      }
    }
    if (this.requestLineEnd < 0 ? head.length > REQUEST_LINE_MAX + 1 : head.length - this.requestLineEnd - 1 > HEADER_BLOCK_MAX) {
      this.failLength();
    }
    return i;
  }

  /** A line of the head has just ended (its LF is the last byte buffered). False when it failed. */
  private endLine(): boolean {
    const bytes = this.head.bytes;
    const lf = this.head.length - 1;
    if (lf === this.lineStart || bytes[lf - 1] !== CR) {
      this.fail(400, 'bare LF in the request head');
      return false;
    }
    const cr = bytes.indexOf(CR, this.lineStart);
    if (cr < lf - 1) {
      this.fail(400, 'bare CR in the request head');
      return false;
    }
    if (this.requestLineEnd < 0) {
      this.requestLineEnd = lf;
      if (lf - 1 > REQUEST_LINE_MAX) {
        this.fail(414, `request line longer than ${REQUEST_LINE_MAX} bytes`);
        return false;
      }
    } else if (lf === this.lineStart + 1) {
      this.parseHead();
      return this.state !== BROKEN;
    } else if (this.head.length - this.requestLineEnd - 1 > HEADER_BLOCK_MAX) {
      this.fail(431, `header block longer than ${HEADER_BLOCK_MAX} bytes`);
      return false;
    } else if (++this.fieldCount > HEADER_FIELDS_MAX) {
      this.fail(431, `more than ${HEADER_FIELDS_MAX} header fields`);
      return false;
    }
    this.lineStart = this.head.length;
    return true;
  }

  /** Parse the buffered head: request line, then every field line, then the framing they set. */
  private parseHead(): void {
    const bytes = this.head.bytes;
    const line = parseRequestLine(bytes, this.requestLineEnd - 1, this);
    if (line) return this.fail(line, this.errorMessage);
    const framing = this.framing;
    framing.reset();
    const blockEnd = this.head.length - 2; // the blank line's CRLF
    let p = this.requestLineEnd + 1;
    while (p < blockEnd) {
      const e = bytes.indexOf(CR, p); // every line ends in CRLF: checked as it arrived
      const status = parseFieldLine(bytes, p, e, this, framing);
      if (status) return this.fail(status, this.errorMessage);
      p = e + 2;
    }
    this.setFraming();
  }

  /** After the fields: the checks that need all of them, and the state the body starts in. */
  private setFraming(): void {
    const minor = this.versionMinor;
    const f = this.framing;
    const sink = f.contentLength > 0 && this.router ? this.router.bodySink!(this, f.contentLength) : null;
    const status = checkFraming(f, minor, this, sink ? sink.limit : BODY_MAX);
    if (status) {
      if (sink) sink.abort();
      return this.fail(status, this.errorMessage);
    }
    this.sink = sink;
    this.keepAlive = minor === 1 && !f.connectionClose;
    this.remaining = f.contentLength;
    this.state = f.chunked ? CHUNKED : f.contentLength > 0 ? BODY : DONE;
    this.expectContinue = f.expectContinue && this.state !== DONE && minor === 1;
  }
}
Object.freeze(RequestParser.prototype);
