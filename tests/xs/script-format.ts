// The byte framing between the parity test (Node) and tests/xs/xs-entry.ts (run under XS and Node).
// Device-side rules apply here too: no Node APIs, no TextEncoder needed (bundled into XS).
//
// Script (input of runScript / handleCommand):
//   byte 0       flags: FLAG_RESET = build a fresh Api + sim module first (state back to power-on);
//                       FLAG_KEEP  = feed the long-lived Connection instead of a fresh one (bench)
//   then ops:    'R' u32be(len) bytes   -> connection.receive(bytes)
//                'E'                    -> connection.end()
// Events (output), in the order they happened:
//   'W' u32be(len) bytes   transport.write(bytes)
//   'C'                    transport.close()
//   'X' u32be(len) text    an exception escaped receive()/end() (text is Latin-1 of its String())

export const FLAG_RESET = 1;
export const FLAG_KEEP = 2;

export const OP_RECEIVE = 0x52; // 'R'
export const OP_END = 0x45; // 'E'
export const EV_WRITE = 0x57; // 'W'
export const EV_CLOSE = 0x43; // 'C'
export const EV_THROW = 0x58; // 'X'

export type ScriptOp = { receive: Uint8Array } | { end: true };

export type ScriptEvent =
  | { type: 'write'; bytes: Uint8Array }
  | { type: 'close' }
  | { type: 'throw'; message: string };

/** A growable byte buffer. */
export class ByteWriter {
  private buf = new Uint8Array(256);
  private len = 0;
  private ensure(extra: number): void {
    if (this.len + extra <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + extra) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }
  byte(b: number): void {
    this.ensure(1);
    this.buf[this.len++] = b & 0xff;
  }
  u32(n: number): void {
    this.ensure(4);
    this.buf[this.len++] = (n >>> 24) & 0xff;
    this.buf[this.len++] = (n >>> 16) & 0xff;
    this.buf[this.len++] = (n >>> 8) & 0xff;
    this.buf[this.len++] = n & 0xff;
  }
  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }
  /** A copy exactly as long as what was written. */
  result(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

function readU32(b: Uint8Array, at: number): number {
  if (at + 4 > b.length) throw new Error('script: truncated length');
  return ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
}

export function encodeScript(flags: number, ops: readonly ScriptOp[]): Uint8Array {
  const w = new ByteWriter();
  w.byte(flags);
  for (const op of ops) {
    if ('receive' in op) {
      w.byte(OP_RECEIVE);
      w.u32(op.receive.length);
      w.bytes(op.receive);
    } else {
      w.byte(OP_END);
    }
  }
  return w.result();
}

export function decodeScript(b: Uint8Array): { flags: number; ops: ScriptOp[] } {
  if (b.length < 1) throw new Error('script: empty');
  const ops: ScriptOp[] = [];
  let at = 1;
  while (at < b.length) {
    const op = b[at++];
    if (op === OP_RECEIVE) {
      const len = readU32(b, at);
      at += 4;
      if (at + len > b.length) throw new Error('script: truncated chunk');
      ops.push({ receive: b.subarray(at, at + len) });
      at += len;
    } else if (op === OP_END) {
      ops.push({ end: true });
    } else {
      throw new Error('script: unknown op ' + op);
    }
  }
  return { flags: b[0], ops };
}

export function latin1Bytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out[i] = c < 0x100 ? c : 0x3f; // '?'
  }
  return out;
}

export function latin1String(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i++) s += String.fromCharCode(b[i]);
  return s;
}

export function decodeEvents(b: Uint8Array): ScriptEvent[] {
  const events: ScriptEvent[] = [];
  let at = 0;
  while (at < b.length) {
    const ev = b[at++];
    if (ev === EV_WRITE || ev === EV_THROW) {
      const len = readU32(b, at);
      at += 4;
      if (at + len > b.length) throw new Error('events: truncated');
      const bytes = b.slice(at, at + len);
      at += len;
      events.push(ev === EV_WRITE ? { type: 'write', bytes } : { type: 'throw', message: latin1String(bytes) });
    } else if (ev === EV_CLOSE) {
      events.push({ type: 'close' });
    } else {
      throw new Error('events: unknown event ' + ev);
    }
  }
  return events;
}
