// XS bundle entry for tests/xs-mdns.test.ts: the mDNS responder (src/dns/mdns-responder.ts) as a
// module runs it (one announced instance, two service types), on a virtual clock.
// globalThis.handleCommand(msg), msg[0]:
//   'I'          make the responder and run it until announced (probes, two announcements): idle
//   'Q' u32be    N PTR queries for _brainstem._tcp.local, each answered (time moves 2 s per query)
//   'B' u32be    N 18-byte self-pointer packets (each dropped)
//   (always)     answers JSON {sent, bytes, dropped}: messages and bytes sent so far, packets dropped.

import { MdnsResponder } from '../../src/dns/mdns-responder';
import { latin1Bytes } from './script-format';

/** A PTR query for _brainstem._tcp.local (id 0, QM). */
const QUERY = Uint8Array.of(0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 10, 95, 98, 114, 97, 105, 110, 115, 116, 101, 109, 4, 95, 116, 99, 112, 5, 108, 111, 99, 97, 108, 0, 0, 12, 0, 1);
const SELF_POINTER = Uint8Array.of(0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xc0, 0x0c, 0, 12, 0, 1);

let now = 0;
let sent = 0;
let bytes = 0;
const timers: { at: number; fn: () => void }[] = [];
let responder: MdnsResponder | null = null;

function advance(ms: number): void {
  const until = now + ms;
  for (;;) {
    let next = -1;
    for (let i = 0; i < timers.length; i++) if (timers[i].at <= until && (next < 0 || timers[i].at < timers[next].at)) next = i;
    if (next < 0) break;
    const t = timers.splice(next, 1)[0];
    now = Math.max(now, t.at);
    t.fn();
  }
  now = until;
}

function make(): void {
  responder = new MdnsResponder({
    send: (p) => { sent++; bytes += p.length; },
    now: () => now,
    setTimer: (fn, ms) => { const t = { at: now + ms, fn }; timers.push(t); return t; },
    clearTimer: (t) => { const i = timers.indexOf(t as { at: number; fn: () => void }); if (i >= 0) timers.splice(i, 1); },
  }, ['http', 'brainstem'], 1);
  responder.setAddresses(Uint8Array.of(192, 168, 1, 50));
  responder.set(0, { hostname: 'brainstem-1234abcd', port: 80, txt: { serial: '0x1234ABCD', model: '5', fw: '0.1.0', api: '/api/v1', auth: 'none' } });
  advance(3000);
}

(globalThis as unknown as { handleCommand: (msg: ArrayBuffer) => ArrayBuffer }).handleCommand = (msg: ArrayBuffer): ArrayBuffer => {
  const m = new Uint8Array(msg);
  const n = m.length >= 5 ? ((m[1] << 24) | (m[2] << 16) | (m[3] << 8) | m[4]) >>> 0 : 0;
  if (m[0] === 0x49) make(); // 'I'
  for (let i = 0; i < n && responder; i++) {
    if (m[0] === 0x51) { // 'Q'
      responder.receive(QUERY, QUERY.length, '192.168.1.9', 5353);
      advance(2000);
    } else if (m[0] === 0x42) { // 'B'
      responder.receive(SELF_POINTER, SELF_POINTER.length, '192.168.1.9', 5353);
    }
  }
  return latin1Bytes(JSON.stringify({ sent, bytes, dropped: responder ? responder.dropped : 0 })).buffer as ArrayBuffer;
};
