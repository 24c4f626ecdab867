// A byte buffer that holds little while idle: it starts at a small size, doubles (up to a ceiling
// the caller checks against its limits) only while a request needs room, and shrinks back to the
// small size once that request is done. An idle keep-alive connection so keeps a few hundred bytes
// instead of its largest request's worth.

export class ByteBuffer {
  /** The storage; bytes [0, length) are in use. Replaced when it grows or shrinks. */
  bytes: Uint8Array;
  length = 0;
  private readonly initial: number;
  private readonly max: number;

  /** `max` is the most it ever holds (the caller refuses more before appending). */
  constructor(initial: number, max: number) {
    this.initial = initial;
    this.max = max;
    this.bytes = new Uint8Array(initial);
  }

  /** Bytes of storage held now. */
  get held(): number {
    return this.bytes.length;
  }

  /** Append data[start, end), growing by doubling; the caller has checked its limit first. */
  append(data: Uint8Array, start: number, end: number): void {
    const need = this.length + end - start;
    if (need > this.bytes.length) {
      let size = this.bytes.length || 64;
      while (size < need) size *= 2;
      if (size > this.max) size = this.max > need ? this.max : need;
      const grown = new Uint8Array(size);
      grown.set(this.bytes.subarray(0, this.length), 0);
      this.bytes = grown;
    }
    this.bytes.set(data.subarray(start, end), this.length);
    this.length = need;
  }

  /** Forget the content; give back storage grown beyond the initial size. */
  clear(): void {
    this.length = 0;
    if (this.bytes.length > this.initial) this.bytes = new Uint8Array(this.initial);
  }

  view(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}
Object.freeze(ByteBuffer.prototype);
