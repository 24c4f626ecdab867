// A DNS message writer into one fixed buffer, reused for every message: names are compressed against
// the names already in the message (RFC 1035 §4.1.4; pointers always point backwards), and nothing is
// written past the message's limit. A question or record that does not fit is taken back whole and
// reported (false), so the caller can send what is there and go on in a new message.

import { CLASS_IN, CLASS_TOP_BIT, HEADER_BYTES, nameEquals } from './dns-reader';

/** A message's payload stays within one Ethernet frame (RFC 6762 §17 allows 9,000, not all receive it). */
export const MESSAGE_BYTES = 1460;
/** Offsets of names already in the message, for compression. */
const MAX_NAMES = 96;
const COUNTS = 0;
const SAVED = 6;
const NAMES = COUNTS + 4 + SAVED;

export const SECTION_ANSWER = 0;
export const SECTION_AUTHORITY = 1;
export const SECTION_ADDITIONAL = 2;

export class DnsWriter {
  readonly buf = new Uint8Array(MESSAGE_BYTES);
  len = 0;
  private limit = MESSAGE_BYTES;
  /** One array (each typed array costs slots): the 4 counts, a checkpoint, then name offsets. */
  private readonly words = new Uint16Array(NAMES + MAX_NAMES);
  private nameCount = 0;
  /** Offsets saved at the start of the question or record being written, to take it back. */
  private markLen = 0;
  private markNames = 0;
  private dataStart = 0;

  /** Starts a message (`limit`: 512 for a legacy unicast answer). */
  begin(id: number, flags: number, limit = MESSAGE_BYTES): void {
    this.limit = Math.min(limit, MESSAGE_BYTES);
    this.len = HEADER_BYTES;
    this.nameCount = 0;
    this.words.fill(0, COUNTS, COUNTS + 4);
    this.buf.fill(0, 0, HEADER_BYTES);
    put16(this.buf, 0, id);
    put16(this.buf, 2, flags);
  }

  /** Nothing but the header so far. */
  get empty(): boolean {
    return this.len === HEADER_BYTES;
  }

  /** The finished message: the header's counts filled in. A view of the writer's buffer. */
  finish(): Uint8Array {
    for (let i = 0; i < 4; i++) put16(this.buf, 4 + 2 * i, this.words[COUNTS + i]);
    return this.buf.subarray(0, this.len);
  }

  /** Sets header flags on the message being written (TC on a legacy answer cut short). */
  addFlags(flags: number): void {
    put16(this.buf, 2, ((this.buf[2] << 8) | this.buf[3]) | flags);
  }

  /** A question for the name at name[at..] (wire form, uncompressed). */
  question(name: Uint8Array, type: number, unicast: boolean, at = 0): boolean {
    this.mark();
    if (!this.name(name, at) || !this.room(4)) return this.undo();
    this.u16(type);
    this.u16(CLASS_IN | (unicast ? CLASS_TOP_BIT : 0));
    this.words[COUNTS + 0]++;
    return true;
  }

  /**
   * Starts a record (sections in order: answers, authority, additional); its data follows through
   * data(), nameData() and short(), and end() counts it. False (taken back) when its start does not fit.
   */
  record(name: Uint8Array, type: number, flush: boolean, ttl: number, at = 0): boolean {
    this.mark();
    if (!this.name(name, at) || !this.room(10)) return this.undo();
    this.u16(type);
    this.u16(CLASS_IN | (flush ? CLASS_TOP_BIT : 0));
    this.u16(ttl >>> 16);
    this.u16(ttl & 0xffff);
    this.u16(0); // the data length, set by end()
    this.dataStart = this.len;
    return true;
  }

  /** Data bytes of the record being written. */
  data(bytes: Uint8Array): boolean {
    if (!this.room(bytes.length)) return this.undo();
    this.buf.set(bytes, this.len);
    this.len += bytes.length;
    return true;
  }

  /** The name at name[at..], compressed, inside the record being written (PTR, SRV). */
  nameData(name: Uint8Array, at = 0): boolean {
    return this.name(name, at) || this.undo();
  }

  /** Two data bytes of the record being written. */
  short(v: number): boolean {
    if (!this.room(2)) return this.undo();
    this.u16(v);
    return true;
  }

  /** Ends the record being written in `section` (SECTION_*): its data length, its count. */
  end(section: number): true {
    put16(this.buf, this.dataStart - 2, this.len - this.dataStart);
    this.words[COUNTS + 1 + section]++;
    return true;
  }

  /** Remembers where the message is now, for rollback(): one checkpoint at a time. */
  checkpoint(): void {
    this.words[COUNTS + 4 + 0] = this.len;
    this.words[COUNTS + 4 + 1] = this.nameCount;
    for (let i = 0; i < 4; i++) this.words[COUNTS + 4 + 2 + i] = this.words[COUNTS + i];
  }

  /** Takes back everything written since checkpoint(). */
  rollback(): void {
    this.len = this.words[COUNTS + 4 + 0];
    this.nameCount = this.words[COUNTS + 4 + 1];
    for (let i = 0; i < 4; i++) this.words[COUNTS + i] = this.words[COUNTS + 4 + 2 + i];
  }

  private mark(): void {
    this.markLen = this.len;
    this.markNames = this.nameCount;
  }

  /** Takes back the question or record being written. Always false. */
  private undo(): false {
    this.len = this.markLen;
    this.nameCount = this.markNames;
    return false;
  }

  private room(n: number): boolean {
    return this.len + n <= this.limit;
  }

  private u16(v: number): void {
    put16(this.buf, this.len, v);
    this.len += 2;
  }

  /** name[at..] written, as a pointer to an equal name already in the message where there is one. */
  private name(name: Uint8Array, at: number): boolean {
    for (let p = at; name[p] !== 0; p += name[p] + 1) {
      const to = this.find(name, p);
      if (to >= 0) {
        if (!this.room(p - at + 2)) return false;
        this.labels(name, at, p);
        this.u16(0xc000 | to);
        return true;
      }
    }
    const end = at + nameLength(name, at);
    if (!this.room(end - at)) return false;
    this.labels(name, at, end - 1);
    this.buf[this.len++] = 0;
    return true;
  }

  /** Copies the labels name[from, to), each remembered for later compression. */
  private labels(name: Uint8Array, from: number, to: number): void {
    for (let p = from; p < to; p += name[p] + 1) {
      if (this.nameCount < MAX_NAMES && this.len < 0x3fff) this.words[NAMES + this.nameCount++] = this.len;
      this.buf.set(name.subarray(p, p + name[p] + 1), this.len);
      this.len += name[p] + 1;
    }
  }

  private find(name: Uint8Array, at: number): number {
    for (let i = 0; i < this.nameCount; i++) if (nameEquals(this.buf, this.words[NAMES + i], name, at)) return this.words[NAMES + i];
    return -1;
  }
}
Object.freeze(DnsWriter.prototype);

/** Bytes of the uncompressed wire-form name at name[at..], its final zero included. */
export function nameLength(name: Uint8Array, at = 0): number {
  let p = at;
  while (p < name.length && name[p] !== 0) p += name[p] + 1;
  return p + 1 - at;
}

function put16(buf: Uint8Array, at: number, v: number): void {
  buf[at] = (v >>> 8) & 0xff;
  buf[at + 1] = v & 0xff;
}
