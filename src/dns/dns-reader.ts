// A bounds-checked reader of DNS messages (RFC 1035 §4), the way the HTTP core reads requests: every
// read checks the bounds, a compression pointer must point before the labels it interrupts (so a walk
// always ends) and is followed at most MAX_POINTERS times, labels are at most 63 bytes and names at most
// 255, and counts that cannot fit in the packet are refused. A malformed message is reported as such
// (false, -1), never thrown. Nothing is allocated per message: one DnsReader is reused.

/** Record types and classes the responder reads or writes. */
export const TYPE_A = 1;
export const TYPE_PTR = 12;
export const TYPE_TXT = 16;
export const TYPE_AAAA = 28;
export const TYPE_SRV = 33;
export const TYPE_ANY = 255;
export const CLASS_IN = 1;
/** The top bit of a question's class (QU, RFC 6762 §5.4) or a record's class (cache flush, §10.2). */
export const CLASS_TOP_BIT = 0x8000;
/** Header flags: a response, truncated (TC), and the opcode field. */
export const FLAG_RESPONSE = 0x8000;
export const FLAG_TRUNCATED = 0x0200;
export const OPCODE_MASK = 0x7800;

export const HEADER_BYTES = 12;
export const MAX_NAME_BYTES = 255;
const MAX_LABEL_BYTES = 63;
/** More hops than a name of 255 bytes can need when every label is reached by a pointer of its own. */
const MAX_POINTERS = 128;
const MIN_QUESTION_BYTES = 5;
const MIN_RECORD_BYTES = 11;

/**
 * Offset just past the name at `off` in msg[0, len), or -1 when it is malformed: past the end, a
 * label type other than 0 or a pointer, a pointer that does not point strictly before the labels it
 * follows, into the header, too many pointers, or more than 255 bytes in all.
 */
export function skipName(msg: Uint8Array, len: number, off: number): number {
  let pos = off;
  let end = -1;
  let floor = off;
  let total = 1;
  for (let hops = 0; hops <= MAX_POINTERS;) {
    if (pos >= len) return -1;
    const n = msg[pos];
    if (n === 0) return end < 0 ? pos + 1 : end;
    if ((n & 0xc0) === 0xc0) {
      if (pos + 1 >= len) return -1;
      const to = ((n & 0x3f) << 8) | msg[pos + 1];
      if (to >= floor || to < HEADER_BYTES) return -1;
      if (end < 0) end = pos + 2;
      pos = floor = to;
      hops++;
    } else if (n > MAX_LABEL_BYTES) {
      return -1;
    } else {
      total += n + 1;
      if (total > MAX_NAME_BYTES || pos + n + 1 > len) return -1;
      pos += n + 1;
    }
  }
  return -1;
}

/** ASCII letters compare in any case (RFC 1035 §2.3.3). */
function sameByte(a: number, b: number): boolean {
  if (a === b) return true;
  const x = a | 32;
  return x === (b | 32) && x >= 97 && x <= 122;
}

/** Where the label at `pos` really is: pointers followed (the name was checked by skipName first). */
function follow(msg: Uint8Array, pos: number): number {
  for (let hops = 0; (msg[pos] & 0xc0) === 0xc0 && hops <= MAX_POINTERS; hops++) pos = ((msg[pos] & 0x3f) << 8) | msg[pos + 1];
  return pos;
}

/**
 * Whether the (checked) name at `off` of `msg` equals `name` from `at` on: `name` is in wire form and
 * uncompressed. Letters compare in any case.
 */
export function nameEquals(msg: Uint8Array, off: number, name: Uint8Array, at: number): boolean {
  let p = follow(msg, off);
  let q = at;
  for (;;) {
    const n = msg[p];
    if (n !== name[q]) return false;
    if (n === 0) return true;
    for (let i = 1; i <= n; i++) if (!sameByte(msg[p + i], name[q + i])) return false;
    p = follow(msg, p + n + 1);
    q += n + 1;
  }
}

/**
 * The (checked) name at `off` of `msg` copied into `out` uncompressed; its length, or 0 when `out`
 * is too small (it never is at 256 bytes: skipName refused longer names).
 */
export function copyName(msg: Uint8Array, off: number, out: Uint8Array): number {
  let p = follow(msg, off);
  let len = 0;
  for (;;) {
    const n = msg[p];
    if (len + n + 1 > out.length) return 0;
    out.set(msg.subarray(p, p + n + 1), len);
    len += n + 1;
    if (n === 0) return len;
    p = follow(msg, p + n + 1);
  }
}

/** One message read in place: its header, then its questions and records in order. */
export class DnsReader {
  // Set by reset(); no empty array made for the time before (a typed array costs slots).
  msg: Uint8Array = null as unknown as Uint8Array;
  len = 0;
  pos = 0;
  id = 0;
  flags = 0;
  questions = 0;
  answers = 0;
  authorities = 0;
  additionals = 0;
  /** The last question or record read: where its name is, its type, class, TTL and data. */
  nameAt = 0;
  type = 0;
  cls = 0;
  ttl = 0;
  dataAt = 0;
  dataLength = 0;

  /** Starts on msg[0, len); false when the header is short or its counts cannot fit in the packet. */
  reset(msg: Uint8Array, len: number): boolean {
    this.msg = msg;
    this.len = len = Math.min(len, msg.length);
    this.pos = HEADER_BYTES;
    if (len < HEADER_BYTES) return false;
    this.id = u16(msg, 0);
    this.flags = u16(msg, 2);
    this.questions = u16(msg, 4);
    this.answers = u16(msg, 6);
    this.authorities = u16(msg, 8);
    this.additionals = u16(msg, 10);
    const records = this.answers + this.authorities + this.additionals;
    return this.questions * MIN_QUESTION_BYTES + records * MIN_RECORD_BYTES <= len - HEADER_BYTES;
  }

  /** Reads the next question; false when it is malformed or runs past the end. */
  question(): boolean {
    const at = this.pos;
    const end = skipName(this.msg, this.len, at);
    if (end < 0 || end + 4 > this.len) return false;
    this.nameAt = at;
    this.type = u16(this.msg, end);
    this.cls = u16(this.msg, end + 2);
    this.pos = end + 4;
    return true;
  }

  /** Reads the next resource record; false when it is malformed or runs past the end. */
  record(): boolean {
    const at = this.pos;
    const end = skipName(this.msg, this.len, at);
    if (end < 0 || end + 10 > this.len) return false;
    const length = u16(this.msg, end + 8);
    if (end + 10 + length > this.len) return false;
    this.nameAt = at;
    this.type = u16(this.msg, end);
    this.cls = u16(this.msg, end + 2);
    this.ttl = u16(this.msg, end + 4) * 65536 + u16(this.msg, end + 6);
    this.dataAt = end + 10;
    this.dataLength = length;
    this.pos = end + 10 + length;
    return true;
  }
}
Object.freeze(DnsReader.prototype);

export function u16(msg: Uint8Array, at: number): number {
  return (msg[at] << 8) | msg[at + 1];
}
