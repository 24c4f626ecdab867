// Incremental HTTP/1.1 request parser over bytes (RFC 9112), in the manner of picohttpparser:
// the head is copied into one fixed buffer until its blank line arrives, then parsed in one pass;
// the body (Content-Length or chunked) is copied into a second fixed buffer. Only what the server
// needs is kept: method, target, version, framing, Connection, Host, Expect. No regexes, no
// closures, no per-byte string building; every limit is checked as bytes arrive.

import { BODY_MAX, CHUNK_EXT_MAX, HEADER_BLOCK_MAX, HEADER_FIELDS_MAX, REQUEST_LINE_MAX } from './limits';
import type { HttpRequest } from './request';
import { ascii } from '../util/text';
import { equalsLower, hasToken, hexValue, isHostChar, isTchar } from './syntax';

const CR = 13;
const LF = 10;
const SP = 32;
const HT = 9;
const COLON = 58;

// Parser states.
const HEAD = 0;
const BODY = 1;
const CHUNK_SIZE = 2;
const CHUNK_EXT = 3;
const CHUNK_SIZE_LF = 4;
const CHUNK_DATA = 5;
const CHUNK_DATA_CR = 6;
const CHUNK_DATA_LF = 7;
const TRAILER_LINE_START = 8;
const TRAILER_LINE = 9;
const TRAILER_LF = 10;
const TRAILER_END_LF = 11;
const COMPLETE = 12;
const FAILED = 13;

export class RequestParser implements HttpRequest {
  // Request, valid once the head is parsed.
  method = '';
  target = '';
  versionMinor = 1;
  keepAlive = true;
  /** The client sent `Expect: 100-continue` and a body is still to come. */
  expectContinue = false;
  host = '';
  origin = '';
  secFetchSite = '';
  authorization = '';
  acceptEncoding = '';
  ifNoneMatch = '';
  /** Set once per connection by its owner (the transport's peer address); kept across requests. */
  peer = '';

  // Failure, valid in state FAILED.
  errorStatus = 0;
  errorMessage = '';

  private state = HEAD;
  private readonly head = new Uint8Array(REQUEST_LINE_MAX + 2 + HEADER_BLOCK_MAX);
  private headLength = 0;
  private requestLineEnd = -1; // index of the LF ending the request line
  private lineStart = 0;
  private fieldCount = 0;
  private readonly bodyBuffer = new Uint8Array(BODY_MAX);
  private bodyLength = 0;
  private remaining = 0; // bytes left in the Content-Length body or the current chunk
  private chunkDigits = 0;
  private extLength = 0;
  private trailerBytes = 0;
  /** Has any byte of this request arrived (for the header timeout)? */
  started = false;

  /** Forget the last request; the buffers are kept. */
  reset(): void {
    this.state = HEAD;
    this.method = '';
    this.target = '';
    this.versionMinor = 1;
    this.keepAlive = true;
    this.expectContinue = false;
    this.host = '';
    this.origin = '';
    this.secFetchSite = '';
    this.authorization = '';
    this.acceptEncoding = '';
    this.ifNoneMatch = '';
    this.errorStatus = 0;
    this.errorMessage = '';
    this.headLength = 0;
    this.requestLineEnd = -1;
    this.lineStart = 0;
    this.fieldCount = 0;
    this.bodyLength = 0;
    this.remaining = 0;
    this.trailerBytes = 0;
    this.started = false;
  }

  get complete(): boolean {
    return this.state === COMPLETE;
  }

  get failed(): boolean {
    return this.state === FAILED;
  }

  /** Is the head parsed while body bytes are still to come? */
  get inBody(): boolean {
    return this.state > HEAD && this.state < COMPLETE;
  }

  body(): Uint8Array {
    return this.bodyBuffer.subarray(0, this.bodyLength);
  }

  /**
   * Consume bytes from data[start, end). Returns how many were used: it stops at the end of a
   * request (complete) or at the first error (failed), leaving the rest for the next request.
   */
  feed(data: Uint8Array, start: number, end: number): number {
    let i = start;
    if (this.state === HEAD) i = this.feedHead(data, i, end);
    while (i < end && this.state > HEAD && this.state < COMPLETE) {
      i = this.state === BODY || this.state === CHUNK_DATA ? this.copyBody(data, i, end) : this.feedFraming(data[i], i);
    }
    return i - start;
  }

  private fail(status: number, message: string): void {
    this.state = FAILED;
    this.errorStatus = status;
    this.errorMessage = message;
    this.keepAlive = false;
  }

  /**
   * Copy head bytes into the head buffer and look for its end, a line at a time: the copy is one
   * native `set` and the line search one native `indexOf` per line, not a step per byte.
   */
  private feedHead(data: Uint8Array, i: number, end: number): number {
    const head = this.head;
    if (this.headLength === 0) {
      // RFC 9112 §2.2: ignore empty lines before the request line.
      while (i < end && (data[i] === CR || data[i] === LF)) i++;
      if (i === end) return i;
      this.started = true;
    }
    while (i < end) {
      const room = head.length - this.headLength;
      let lf = data.indexOf(LF, i);
      if (lf >= end) lf = -1;
      const take = lf < 0 ? end - i : lf + 1 - i;
      if (take > room) {
        // The buffer holds the longest request line and header block allowed, and then some.
        if (this.requestLineEnd < 0) this.fail(414, `request line longer than ${REQUEST_LINE_MAX} bytes`);
        else this.fail(431, `header block longer than ${HEADER_BLOCK_MAX} bytes`);
        return i;
      }
      head.set(data.subarray(i, i + take), this.headLength);
      this.headLength += take;
      i += take;
      if (lf < 0) break;
      if (!this.endLine()) return i;
      if (this.state !== HEAD) return i;
    }
    // A line still arriving: hold it to the limits now rather than when its LF comes.
    if (this.requestLineEnd < 0) {
      if (this.headLength > REQUEST_LINE_MAX + 1) this.fail(414, `request line longer than ${REQUEST_LINE_MAX} bytes`);
    } else if (this.headLength - this.requestLineEnd - 1 > HEADER_BLOCK_MAX) {
      this.fail(431, `header block longer than ${HEADER_BLOCK_MAX} bytes`);
    }
    return i;
  }

  /** A line of the head has just ended (its LF is the last byte buffered). False when it failed. */
  private endLine(): boolean {
    const head = this.head;
    const lf = this.headLength - 1;
    if (this.requestLineEnd < 0) {
      this.requestLineEnd = lf;
      const length = lf > 0 && head[lf - 1] === CR ? lf - 1 : lf;
      if (length > REQUEST_LINE_MAX) {
        this.fail(414, `request line longer than ${REQUEST_LINE_MAX} bytes`);
        return false;
      }
    } else if (lf === this.lineStart || (lf === this.lineStart + 1 && head[this.lineStart] === CR)) {
      this.parseHead();
      return !this.failed;
    } else if (this.headLength - this.requestLineEnd - 1 > HEADER_BLOCK_MAX) {
      this.fail(431, `header block longer than ${HEADER_BLOCK_MAX} bytes`);
      return false;
    } else if (++this.fieldCount > HEADER_FIELDS_MAX) {
      this.fail(431, `more than ${HEADER_FIELDS_MAX} header fields`);
      return false;
    }
    this.lineStart = this.headLength;
    return true;
  }

  /** Parse the buffered head: request line, then every field line. */
  private parseHead(): void {
    const head = this.head;
    let lineEnd = this.requestLineEnd;
    if (lineEnd > 0 && head[lineEnd - 1] === CR) lineEnd--;
    if (!this.parseRequestLine(lineEnd)) return;

    let contentLength = -1;
    let chunked = false;
    let transferEncodings = 0;
    let hosts = 0;
    let connectionClose = false;
    let expectContinue = false;
    const blockEnd = this.headLength;
    let p = this.requestLineEnd + 1;
    while (p < blockEnd) {
      let e = p;
      while (head[e] !== LF) e++;
      const next = e + 1;
      if (e > p && head[e - 1] === CR) e--;
      if (e === p) break; // the blank line
      if (head[p] === SP || head[p] === HT) return this.fail(400, 'obsolete line folding is not accepted');
      let c = p;
      while (c < e && isTchar(head[c])) c++;
      if (c === p || c === e || head[c] !== COLON) return this.fail(400, 'malformed header field name');
      let vs = c + 1;
      while (vs < e && (head[vs] === SP || head[vs] === HT)) vs++;
      let ve = e;
      while (ve > vs && (head[ve - 1] === SP || head[ve - 1] === HT)) ve--;
      for (let k = vs; k < ve; k++) {
        const b = head[k];
        if ((b < SP && b !== HT) || b === 127) return this.fail(400, 'control character in a header field value');
      }
      const nameLength = c - p;
      if (nameLength === 14 && equalsLower(head, p, c, 'content-length')) {
        if (contentLength >= 0) return this.fail(400, 'more than one Content-Length');
        if (vs === ve) return this.fail(400, 'malformed Content-Length');
        // 1*DIGIT; leading zeros allowed. Past 12 significant digits it is far over the body limit
        // anyway: kept at a bound so the number stays exact.
        let n = 0;
        for (let k = vs; k < ve; k++) {
          const d = head[k] - 48;
          if (d < 0 || d > 9) return this.fail(400, 'malformed Content-Length');
          if (n < 1e12) n = n * 10 + d;
        }
        contentLength = n;
      } else if (nameLength === 17 && equalsLower(head, p, c, 'transfer-encoding')) {
        const status = this.checkTransferEncoding(vs, ve, transferEncodings > 0 || chunked);
        if (status) return this.fail(status, status === 501 ? 'unknown transfer coding' : 'only the chunked transfer coding is accepted');
        chunked = true;
        transferEncodings++;
      } else if (nameLength === 4 && equalsLower(head, p, c, 'host')) {
        if (++hosts > 1) return this.fail(400, 'more than one Host');
        for (let k = vs; k < ve; k++) if (!isHostChar(head[k])) return this.fail(400, 'malformed Host');
        this.host = ascii(head, vs, ve);
      } else if (nameLength === 10 && equalsLower(head, p, c, 'connection')) {
        if (hasToken(head, vs, ve, 'close')) connectionClose = true;
      } else if (nameLength === 6 && equalsLower(head, p, c, 'expect')) {
        if (equalsLower(head, vs, ve, '100-continue')) expectContinue = true;
      } else if (nameLength === 6 && equalsLower(head, p, c, 'origin')) {
        this.origin = ascii(head, vs, ve);
      } else if (nameLength === 14 && equalsLower(head, p, c, 'sec-fetch-site')) {
        this.secFetchSite = ascii(head, vs, ve);
      } else if (nameLength === 13 && equalsLower(head, p, c, 'authorization')) {
        this.authorization = ascii(head, vs, ve);
      } else if (nameLength === 15 && equalsLower(head, p, c, 'accept-encoding')) {
        this.acceptEncoding = ascii(head, vs, ve);
      } else if (nameLength === 13 && equalsLower(head, p, c, 'if-none-match')) {
        this.ifNoneMatch = ascii(head, vs, ve);
      }
      p = next;
    }

    if (this.versionMinor === 1 && hosts === 0) return this.fail(400, 'HTTP/1.1 request without Host');
    if (chunked && contentLength >= 0) return this.fail(400, 'both Content-Length and Transfer-Encoding');
    if (chunked && this.versionMinor === 0) return this.fail(400, 'Transfer-Encoding in an HTTP/1.0 request');
    if (contentLength > BODY_MAX) return this.fail(413, `body longer than ${BODY_MAX} bytes`);
    this.keepAlive = this.versionMinor === 1 && !connectionClose;
    if (chunked) {
      this.state = CHUNK_SIZE;
      this.chunkDigits = 0;
      this.remaining = 0;
    } else if (contentLength > 0) {
      this.state = BODY;
      this.remaining = contentLength;
    } else {
      this.state = COMPLETE;
    }
    this.expectContinue = expectContinue && this.state !== COMPLETE && this.versionMinor === 1;
  }

  /** 0 when the Transfer-Encoding value is exactly `chunked` (once), else the status to answer. */
  private checkTransferEncoding(s: number, e: number, seenBefore: boolean): number {
    const head = this.head;
    let status = 0;
    let codings = 0;
    let i = s;
    while (i <= e) {
      let ce = i;
      while (ce < e && head[ce] !== 44) ce++;
      let ts = i;
      let te = ce;
      while (ts < te && (head[ts] === SP || head[ts] === HT)) ts++;
      while (te > ts && (head[te - 1] === SP || head[te - 1] === HT)) te--;
      // Parameters (";q=...") are not taken apart: a coding with them is not plain chunked.
      if (te > ts) {
        codings++;
        if (!equalsLower(head, ts, te, 'chunked')) {
          const known = equalsLower(head, ts, te, 'gzip') || equalsLower(head, ts, te, 'deflate') ||
            equalsLower(head, ts, te, 'compress') || equalsLower(head, ts, te, 'x-gzip') ||
            equalsLower(head, ts, te, 'x-compress') || equalsLower(head, ts, te, 'identity');
          if (!known) return 501;
          status = 400;
        }
      }
      i = ce + 1;
    }
    if (status) return status;
    if (codings !== 1 || seenBefore) return 400;
    return 0;
  }

  private parseRequestLine(end: number): boolean {
    const head = this.head;
    let i = 0;
    while (i < end && isTchar(head[i])) i++;
    if (i === 0 || i === end || head[i] !== SP) {
      this.fail(400, 'malformed request line');
      return false;
    }
    this.method = ascii(head, 0, i);
    const ts = ++i;
    while (i < end && head[i] > SP && head[i] < 127) i++;
    const te = i;
    if (te === ts || i === end || head[i] !== SP) {
      this.fail(400, 'malformed request target');
      return false;
    }
    i++;
    // HTTP-version = "HTTP/" DIGIT "." DIGIT, and nothing after it.
    if (end - i !== 8 || head[i] !== 72 || head[i + 1] !== 84 || head[i + 2] !== 84 || head[i + 3] !== 80 ||
      head[i + 4] !== 47 || head[i + 6] !== 46 || head[i + 5] < 48 || head[i + 5] > 57 ||
      head[i + 7] < 48 || head[i + 7] > 57) {
      this.fail(400, 'malformed HTTP version');
      return false;
    }
    const major = head[i + 5] - 48;
    const minor = head[i + 7] - 48;
    if (major !== 1 || minor > 1) {
      this.versionMinor = 1;
      this.fail(505, `HTTP/${major}.${minor} is not supported; use HTTP/1.1 or HTTP/1.0`);
      return false;
    }
    this.versionMinor = minor;
    return this.parseTarget(ts, te);
  }

  /** origin-form, asterisk-form, or absolute-form reduced to its path (RFC 9112 §3.2). */
  private parseTarget(ts: number, te: number): boolean {
    const head = this.head;
    if (head[ts] === 47 || (te - ts === 1 && head[ts] === 42)) {
      this.target = ascii(head, ts, te);
      return true;
    }
    // absolute-form: scheme "://" authority [path]
    let i = ts;
    while (i < te && head[i] !== 58 && head[i] !== 47) i++;
    if (i + 2 < te && head[i] === 58 && head[i + 1] === 47 && head[i + 2] === 47) {
      i += 3;
      while (i < te && head[i] !== 47 && head[i] !== 63) i++;
      this.target = i === te ? '/' : head[i] === 63 ? '/' + ascii(head, i, te) : ascii(head, i, te);
      return true;
    }
    this.fail(400, 'malformed request target');
    return false;
  }

  /** Copy body bytes (Content-Length body or chunk data). */
  private copyBody(data: Uint8Array, i: number, end: number): number {
    let n = end - i;
    if (n > this.remaining) n = this.remaining;
    this.bodyBuffer.set(data.subarray(i, i + n), this.bodyLength);
    this.bodyLength += n;
    this.remaining -= n;
    if (this.remaining === 0) this.state = this.state === BODY ? COMPLETE : CHUNK_DATA_CR;
    return i + n;
  }

  /** One byte of chunked framing: sizes, extensions, CRLFs and trailers. Bare LF is refused here. */
  private feedFraming(b: number, i: number): number {
    switch (this.state) {
      case CHUNK_SIZE: {
        const h = hexValue(b);
        if (h >= 0) {
          // More than 8 hex digits would overflow 32 bits: malformed, not merely large.
          if (++this.chunkDigits > 8) { this.fail(400, 'chunk size overflows 32 bits'); return i; }
          this.remaining = this.remaining * 16 + h;
          return i + 1;
        }
        if (this.chunkDigits === 0) { this.fail(400, 'malformed chunk size'); return i; }
        if (this.bodyLength + this.remaining > BODY_MAX) { this.fail(413, `body longer than ${BODY_MAX} bytes`); return i; }
        if (b === CR) {
          this.state = CHUNK_SIZE_LF;
        } else if (b === 59 || b === SP || b === HT) { // ';' or BWS before it
          this.state = CHUNK_EXT;
          this.extLength = 0;
        } else {
          this.fail(400, 'malformed chunk size'); return i;
        }
        return i + 1;
      }
      case CHUNK_EXT:
        if (b === CR) this.state = CHUNK_SIZE_LF;
        else if ((b < SP && b !== HT) || b === 127 || ++this.extLength > CHUNK_EXT_MAX) {
          this.fail(400, 'malformed chunk extension'); return i;
        }
        return i + 1;
      case CHUNK_SIZE_LF:
        if (b !== LF) { this.fail(400, 'chunk size line not ended by CRLF'); return i; }
        this.chunkDigits = 0;
        if (this.remaining === 0) {
          this.state = TRAILER_LINE_START;
        } else {
          this.state = CHUNK_DATA;
        }
        return i + 1;
      case CHUNK_DATA_CR:
        if (b !== CR) { this.fail(400, 'chunk data not followed by CRLF'); return i; }
        this.state = CHUNK_DATA_LF;
        return i + 1;
      case CHUNK_DATA_LF:
        if (b !== LF) { this.fail(400, 'chunk data not followed by CRLF'); return i; }
        this.state = CHUNK_SIZE;
        this.remaining = 0;
        return i + 1;
      case TRAILER_LINE_START:
        if (b === CR) { this.state = TRAILER_END_LF; return i + 1; }
        if (b === SP || b === HT || !isTchar(b)) { this.fail(400, 'malformed trailer field'); return i; }
        this.state = TRAILER_LINE;
        return this.countTrailer(i);
      case TRAILER_LINE:
        if (b === CR) { this.state = TRAILER_LF; return i + 1; }
        if ((b < SP && b !== HT) || b === 127) { this.fail(400, 'control character in a trailer field'); return i; }
        return this.countTrailer(i);
      case TRAILER_LF:
        if (b !== LF) { this.fail(400, 'trailer field not ended by CRLF'); return i; }
        this.state = TRAILER_LINE_START;
        return this.countTrailer(i);
      case TRAILER_END_LF:
        if (b !== LF) { this.fail(400, 'chunked body not ended by CRLF'); return i; }
        this.state = COMPLETE;
        return i + 1;
    }
    return i + 1;
  }

  private countTrailer(i: number): number {
    if (++this.trailerBytes > HEADER_BLOCK_MAX) {
      this.fail(431, `trailer fields longer than ${HEADER_BLOCK_MAX} bytes`);
      return i;
    }
    return i + 1;
  }
}
Object.freeze(RequestParser.prototype);
