// The body of an answer that goes on after its head (a ResponseStream), as a Connection sends it.
// An event stream is polled once a tick while its client keeps up, its text written as is until the
// connection closes. A finite stream (the device description, /metrics) is polled only while nothing
// of it waits in the transport, and its pieces are joined into one write of about a segment
// (STREAM_WRITE_CHARS): one array, behind its chunk-size line (HTTP/1.1, chunked) or bare (HTTP/1.0:
// the close ends the body). So a streaming connection holds one array of at most about a segment, not
// a queue of small ones (each an object of its own in a heap counted in slots), and a paced transport
// (the Pico W) still sends a segment a turn. Made by a Connection when an answer streams, dropped
// when it ends: an idle connection holds none.

import type { HttpResponse, ResponseStream } from './request';
import type { TextCodec } from '../../util/text';

/** What a StreamedBody writes to (Connection's Transport). */
export interface BodySink {
  write(bytes: Uint8Array): void;
  backlog?(): number;
}

/** An event stream whose client reads slower than it is written skips ticks rather than queue without end. */
export const STREAM_BACKLOG_MAX = 4096;

/** A finite stream makes its next write only while less than this waits in the transport: nothing. */
export const STREAM_LOW_WATER = 1;

/**
 * A finite stream's pieces are joined into one write of up to this many characters: a TCP segment
 * (1,460 bytes) less its chunk framing. A piece that would take the write past it starts the next one.
 */
export const STREAM_WRITE_CHARS = 1440;

/** next(): a piece was written, the stream has ended (its last chunk written), or nothing is due now. */
export const PIECE_SENT = 0;
export const STREAM_ENDED = 1;
export const NOTHING_NOW = 2;

/** The end of a chunked body (RFC 9112 §7.1). */
const LAST_CHUNK = '0\r\n\r\n';

// StreamedBody.bits (one number rather than a slot each).
const ENDS = 1, CLOSES = 2, CHUNKED = 4, CHUNK_OPEN = 8;

export class StreamedBody {
  private readonly sink: BodySink;
  private readonly codec: TextCodec;
  private stream: ResponseStream | null;
  /** ENDS | CLOSES | CHUNKED | CHUNK_OPEN (a chunk has been written: the next size line starts with the CRLF that ends it). */
  private bits: number;
  /** When a finite stream last wrote a piece (its client's reading, not its sending, keeps it alive). */
  progressAt: number;
  /** A piece polled that did not fit in the last write: the start of the next. */
  private carry = '';

  /** Takes over the stream of an answer whose head has been written, at `now`. */
  constructor(sink: BodySink, codec: TextCodec, res: HttpResponse, now: number) {
    this.sink = sink;
    this.codec = codec;
    this.stream = res.stream;
    this.bits = (res.streamEnds ? ENDS : 0) | (res.close ? CLOSES : 0) | (res.chunked ? CHUNKED : 0);
    this.progressAt = now;
    res.stream = null;
  }

  /** The stream ends (poll gives null): the connection is reused after it unless `closes`. */
  get ends(): boolean {
    return (this.bits & ENDS) !== 0;
  }

  /** Close the connection when the finite stream has ended (HTTP/1.0, Connection: close, too much input). */
  get closes(): boolean {
    return (this.bits & CLOSES) !== 0;
  }

  set closes(on: boolean) {
    this.bits = on ? this.bits | CLOSES : this.bits & ~CLOSES;
  }

  /** An event stream's tick: its text, unless the client lags. */
  tick(now: number): void {
    const sink = this.sink;
    if (sink.backlog && sink.backlog() > STREAM_BACKLOG_MAX) return;
    const text = this.stream!.poll(now);
    if (text) sink.write(this.codec.encode(text));
  }

  /** Room for a finite stream's next piece? */
  hasRoom(): boolean {
    const sink = this.sink;
    return !sink.backlog || sink.backlog() < STREAM_LOW_WATER;
  }

  /**
   * A finite stream's next write (PIECE_SENT): pieces polled and joined up to STREAM_WRITE_CHARS; its
   * end (STREAM_ENDED, after what was joined); or NOTHING_NOW. May throw (the HAL).
   */
  next(now: number): number {
    const stream = this.stream!;
    let text = this.carry;
    let ended = false;
    this.carry = '';
    while (text.length < STREAM_WRITE_CHARS) {
      const piece = stream.poll(now);
      if (piece === null) { ended = true; break; }
      if (!piece) break;
      if (text && text.length + piece.length > STREAM_WRITE_CHARS) { this.carry = piece; break; }
      text += piece;
    }
    const bits = this.bits;
    if (text) {
      const bytes = this.codec.encode(text);
      if (bits & CHUNKED) {
        this.sink.write(behindSizeLine(bytes, (bits & CHUNK_OPEN) !== 0));
        this.bits = bits | CHUNK_OPEN;
      } else this.sink.write(bytes);
    }
    if (ended) {
      if (bits & CHUNKED) this.sink.write(this.codec.encode(this.bits & CHUNK_OPEN ? '\r\n' + LAST_CHUNK : LAST_CHUNK));
      this.release();
      return STREAM_ENDED;
    }
    return text ? PIECE_SENT : NOTHING_NOW;
  }

  /** The stream is done with (its end, or the connection closed). */
  release(): void {
    const stream = this.stream;
    this.stream = null;
    this.carry = '';
    if (stream) stream.close();
  }
}
Object.freeze(StreamedBody.prototype);

/** `bytes` as one chunk in one array: its size line (after the CRLF ending the chunk before, if any), then the bytes. */
function behindSizeLine(bytes: Uint8Array, afterChunk: boolean): Uint8Array {
  const size = bytes.length.toString(16);
  const lead = afterChunk ? 2 : 0;
  const start = lead + size.length + 2;
  const out = new Uint8Array(start + bytes.length);
  if (afterChunk) { out[0] = 13; out[1] = 10; }
  for (let i = 0; i < size.length; i++) out[lead + i] = size.charCodeAt(i);
  out[start - 2] = 13;
  out[start - 1] = 10;
  out.set(bytes, start);
  return out;
}
