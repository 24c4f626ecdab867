// A byte buffer that holds nothing while idle: storage of a small size is made when bytes must be kept
// (a request head or body that comes in more than one read), doubles (up to a ceiling the caller
// checks against its limits) only while a request needs room, and is given back once that request is
// done. An idle keep-alive connection so keeps no buffer at all, and one whose requests each come in
// one read (lent, not copied) never makes one.

import type { TextCodec } from '../../util/text';

/** The storage of every buffer that holds none (read only: its length is 0). */
const NO_BYTES = new Uint8Array(0);

export class ByteBuffer {
  /** The storage; bytes [0, length) are in use. Replaced when it grows or shrinks. */
  bytes: Uint8Array;
  length = 0;
  private readonly initial: number;
  private readonly max: number;
  /** Bytes lent instead of copied (a read's own, [lentAt, lentAt + length)) until clear(), or null. */
  private lent: Uint8Array | null = null;
  private lentAt = 0;

  /** `max` is the most it ever holds (the caller refuses more before appending). */
  constructor(initial: number, max: number) {
    this.initial = initial;
    this.max = max;
    this.bytes = NO_BYTES;
  }

  /** Bytes of storage held now. */
  get held(): number {
    return this.bytes.length;
  }

  /** Append data[start, end), growing by doubling; the caller has checked its limit first. */
  append(data: Uint8Array, start: number, end: number): void {
    const need = this.length + end - start;
    if (need > this.bytes.length) {
      let size = this.bytes.length || this.initial || 64;
      while (size < need) size *= 2;
      if (size > this.max) size = this.max > need ? this.max : need;
      const grown = new Uint8Array(size);
      grown.set(this.bytes.subarray(0, this.length), 0);
      this.bytes = grown;
    }
    this.bytes.set(data.subarray(start, end), this.length);
    this.length = need;
  }

  /**
   * Hold data[start, end) as the content without copying it (it came whole in one read, and is used
   * before that read's bytes are reused). Nothing may be appended to it.
   */
  lend(data: Uint8Array, start: number, end: number): void {
    this.lent = data;
    this.lentAt = start;
    this.length = end - start;
  }

  /** Forget the content and give back the storage. */
  clear(): void {
    this.length = 0;
    this.lent = null;
    this.bytes = NO_BYTES;
  }

  view(): Uint8Array {
    return this.lent ? this.lent.subarray(this.lentAt, this.lentAt + this.length) : this.bytes.subarray(0, this.length);
  }

  /** The content as UTF-8 text: lent bytes are decoded where they lie when the codec can (no view made). */
  text(codec: TextCodec): string {
    const lent = this.lent;
    return lent && codec.utf8 ? codec.utf8(lent, this.lentAt, this.lentAt + this.length) : codec.decode(this.view());
  }
}
Object.freeze(ByteBuffer.prototype);

/** A copy of `held` (or nothing) followed by data[start, end): input kept aside. Null past `max` bytes. */
export function joined(held: Uint8Array | null, data: Uint8Array, start: number, end: number, max: number): Uint8Array | null {
  const size = (held ? held.length : 0) + end - start;
  if (size > max) return null;
  const next = new Uint8Array(size);
  if (held) next.set(held, 0);
  next.set(data.subarray(start, end), held ? held.length : 0);
  return next;
}
