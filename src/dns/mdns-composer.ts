// Turns a set of flagged records into as few DNS messages as they fit in (RFC 6762 §17: answers
// are split, never truncated; each message within 1,460 bytes): answers first, then the additional
// records that belong with them (RFC 6763 §12). A message takes fewer answers rather than leave out
// the additional records of one it carries; a legacy unicast answer (§6.7) is one message of at most
// 512 bytes that echoes the question and says TC when answers were left out.

import { DnsWriter, SECTION_ADDITIONAL, SECTION_ANSWER } from './dns-writer';
import { FLAG_RESPONSE, FLAG_TRUNCATED, TYPE_ANY } from './dns-reader';
import type { RecordSet } from './mdns-records';

/** Flags per record, shared with the responder. */
export const PENDING = 1;
export const NOW = 2;
const IN_MESSAGE = 4;
export const PROBE_ANSWER = 8;
export const DEFERRED = 16;
const RESPONSE_FLAGS = FLAG_RESPONSE | 0x0400; // QR, AA
const LEGACY_BYTES = 512;

/** Where the messages go (the platform); what it throws is caught and counted. */
export interface Sender { send(packet: Uint8Array, address: string, port: number): void }

export class Composer {
  /** The message writer (a 1,460-byte buffer), made for a round of messages and dropped after it: idle, none. */
  private w: DnsWriter | null = null;
  // Plain arrays, not typed ones: a few numbers each, and a typed array costs about ten heap slots.
  readonly flags: number[];
  /** When each record was last multicast as an answer (§6: not again within a second). */
  readonly lastSent: number[];
  /** Messages the platform could not send (lwIP out of buffers, no route). */
  failures = 0;
  private readonly records: RecordSet;
  private readonly out: Sender;
  private bit = 0;
  private ttlCap = 0;

  constructor(records: RecordSet, out: Sender) {
    this.records = records;
    this.out = out;
    this.flags = new Array<number>(records.total).fill(0);
    this.lastSent = new Array<number>(records.total).fill(-1e9);
  }

  /** The writer of the messages being sent now (made when a round of messages starts). */
  get writer(): DnsWriter {
    return this.w ??= new DnsWriter();
  }

  /** A round of messages is sent: the writer and its buffer go (a responder idles most of the time). */
  release(): void {
    this.w = null;
  }

  /**
   * Sends every record flagged `bit`, as answers (with their additional records when `extras`),
   * TTLs capped at `ttlCap` (0: a goodbye), and clears the flag. `now` >= 0 marks them sent then.
   */
  send(bit: number, extras: boolean, ttlCap: number, address: string, port: number, now: number): void {
    this.bit = bit;
    this.ttlCap = ttlCap;
    for (let r = 0; (r = this.next(r)) >= 0;) {
      let after = this.fill(r, extras, this.records.total, 0, RESPONSE_FLAGS, 0);
      while (after < 0) after = this.fill(r, extras, -after, 0, RESPONSE_FLAGS, 0);
      if (!this.writer.empty) this.emit(this.writer.finish(), address, port);
      this.done(r, after, now);
      r = after;
    }
    this.release();
  }

  /**
   * A legacy unicast answer: one message echoing the question (`question`, `type`) with message `id`,
   * TTLs of at most `ttlCap`, TC when not every answer fit; all flags cleared.
   */
  sendLegacy(bit: number, id: number, question: Uint8Array, type: number, ttlCap: number, address: string, port: number): void {
    this.bit = bit;
    this.ttlCap = ttlCap;
    const first = this.next(0);
    if (first < 0) return;
    let end = this.fill(first, true, this.records.total, id, RESPONSE_FLAGS, LEGACY_BYTES, question, type);
    while (end < 0) end = this.fill(first, true, -end, id, RESPONSE_FLAGS, LEGACY_BYTES, question, type);
    if (this.next(end) >= 0) this.writer.addFlags(FLAG_TRUNCATED);
    if (!this.writer.empty) this.emit(this.writer.finish(), address, port);
    this.done(0, this.records.total, -1);
    this.release();
  }

  /** Hands a finished message to the platform; a refusal (lwIP out of buffers) is counted, not thrown. */
  emit(packet: Uint8Array, address: string, port: number): void {
    try {
      this.out.send(packet, address, port);
    } catch {
      this.failures++;
    }
  }

  /** The first record flagged from `r` on, or -1. */
  private next(r: number): number {
    for (; r < this.flags.length; r++) if (this.flags[r] & this.bit) return r;
    return -1;
  }

  private done(from: number, to: number, now: number): void {
    for (let r = from; r < to; r++) {
      if (!(this.flags[r] & this.bit)) continue;
      this.flags[r] &= ~(this.bit | PROBE_ANSWER);
      if (now >= 0) this.lastSent[r] = now;
    }
  }

  /**
   * One message of at most `most` answers from record `start` on. The index after the last answer
   * it holds; or -N when the additional records of only its first N answers fit (write it again with N;
   * N is half the answers when not even the first one's fit).
   */
  private fill(start: number, extras: boolean, most: number, id: number, flags: number, limit: number,
    question?: Uint8Array, type = TYPE_ANY): number {
    const w = this.writer;
    w.begin(id, flags, limit || undefined);
    if (question && !w.question(question, type, false)) return start + 1;
    for (let r = 0; r < this.flags.length; r++) this.flags[r] &= ~IN_MESSAGE;
    let n = 0;
    let after = start;
    for (let r = start; r < this.flags.length && n < most; r++) {
      if (!(this.flags[r] & this.bit)) continue;
      if (!this.records.write(w, r, SECTION_ANSWER, this.ttlCap)) break;
      this.flags[r] |= IN_MESSAGE;
      n++;
      after = r + 1;
    }
    if (n === 0) return start + 1; // one record alone does not fit: left out
    if (!extras) return after;
    let complete = 0;
    for (let r = start; r < after; r++) {
      if (!(this.flags[r] & this.bit)) continue;
      if (!this.extras(r)) return n > 1 ? -(complete || n >> 1) : after;
      complete++;
    }
    return after;
  }

  /** The additional records of answer `r` not yet in the message; false when one does not fit. */
  private extras(r: number): boolean {
    for (let n = 0; n < 3; n++) {
      const x = this.records.additional(r, n);
      if (x < 0) return true;
      if (this.flags[x] & IN_MESSAGE) continue;
      if (!this.records.write(this.writer, x, SECTION_ADDITIONAL, this.ttlCap)) return false;
      this.flags[x] |= IN_MESSAGE;
    }
    return true;
  }
}
Object.freeze(Composer.prototype);
