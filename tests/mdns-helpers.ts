// A responder (src/dns/mdns-responder.ts) on a virtual clock, its messages decoded by dns-packet (an
// independent DNS implementation), and a few packets made by hand or by dns-packet.

import packet, { type Packet } from 'dns-packet';
import { MdnsResponder } from '../src/dns/mdns-responder';

export interface Sent { bytes: Buffer; address: string; port: number; at: number; decoded: Packet }

export class Rig {
  now = 0;
  readonly sent: Sent[] = [];
  readonly names: string[] = [];
  private readonly timers: { at: number; fn: () => void }[] = [];
  readonly responder: MdnsResponder;

  constructor(count: number, serviceTypes: readonly string[] = ['http', 'brainstem']) {
    this.responder = new MdnsResponder({
      send: (p, address, port) => {
        const bytes = Buffer.from(p);
        this.sent.push({ bytes, address, port, at: this.now, decoded: packet.decode(bytes) });
      },
      now: () => this.now,
      setTimer: (fn, ms) => {
        const t = { at: this.now + ms, fn };
        this.timers.push(t);
        return t;
      },
      clearTimer: (t) => {
        const i = this.timers.indexOf(t as { at: number; fn: () => void });
        if (i >= 0) this.timers.splice(i, 1);
      },
      named: (i, name) => { this.names[i] = name; },
    }, serviceTypes, count);
    this.responder.setAddresses(new Uint8Array([192, 168, 1, 20]));
  }

  /** Runs the timers due within `ms` from now, in order. */
  advance(ms: number): void {
    const until = this.now + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const t = this.timers[0];
      if (!t || t.at > until) break;
      this.timers.shift();
      this.now = Math.max(this.now, t.at);
      t.fn();
    }
    this.now = until;
  }

  /** Sets instance i to `hostname` with the usual TXT, and runs until it is announced. */
  announce(count: number, hostname = (i: number) => `brainstem-a00000${(i + 16).toString(16)}`): void {
    for (let i = 0; i < count; i++) {
      this.responder.set(i, { hostname: hostname(i), port: 8080, txt: { serial: `0xA00000${(i + 16).toString(16).toUpperCase()}`, model: '4', fw: '1.2.3', api: '/api/v1', auth: 'none' } });
    }
    this.advance(3000);
  }

  receive(bytes: Uint8Array, port = 5353, address = '192.168.1.9'): void {
    this.responder.receive(bytes, bytes.length, address, port);
  }

  /** What was sent from `index` on. */
  since(index: number): Sent[] {
    return this.sent.slice(index);
  }
}

/** A query by dns-packet. */
export function query(questions: { name: string; type: string }[], answers: packet.Answer[] = [], flags = 0): Buffer {
  return packet.encode({ type: 'query', id: 0, flags, questions: questions as packet.Question[], answers });
}

/** Every answer and additional record of the messages. */
export function records(sent: Sent[]): packet.Answer[] {
  return sent.flatMap((s) => [...(s.decoded.answers ?? []), ...(s.decoded.additionals ?? [])]);
}

/** The instance names of the PTR answers in the messages. */
export function ptrTargets(sent: Sent[], type = '_brainstem._tcp.local'): string[] {
  return sent.flatMap((s) => (s.decoded.answers ?? []).filter((a) => a.type === 'PTR' && a.name === type).map((a) => (a as { data: string }).data));
}

/** The 18-byte query whose name is a compression pointer to itself (offset 12). */
export const SELF_POINTER = Buffer.from([0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xc0, 0x0c, 0, 12, 0, 1]);
