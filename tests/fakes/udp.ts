// Fake of ECMA-419 embedded:io/socket/udp as the Moddable SDK's lwIP socket behaves
// (modules/io/socket/lwip/udp.c, SDK 8.2.3), over the fake network's event queue:
// - bound to every address on `port` (udp.c:108); a packet to a multicast group is delivered only when
//   the group was joined with add() (lwIP drops the others; udp.c:233-272: ESP32 joins every netif);
// - received packets queue without limit until read (udp.c:316-343) and onReadable(count) is posted
//   once for whatever is queued, not again until it ran (readablePending, udp.c:345-348, 361-374);
// - read() hands out the oldest packet as an ArrayBuffer carrying `address` and `port`, or undefined
//   when none is queued (udp.c:169-195);
// - write() throws "UDP send failed" when lwIP refuses (no pbuf: udp.c:226-228), which a test
//   provokes with `refuseWrites`; an invalid address throws RangeError (udp.c:197-211).

import { net } from './net';

export interface UdpOptions {
  port?: number;
  onReadable?(this: UDP, count: number): void;
}

export interface SentPacket { bytes: Uint8Array; address: string; port: number }

export default class UDP {
  /** Every open socket, every packet written, and the next writes lwIP refuses. */
  static readonly open: UDP[] = [];
  static readonly sent: SentPacket[] = [];
  static refuseWrites = 0;
  /** Made to throw as a socket without a network does (udp.c:104-111: "no socket", "bind failed"). */
  static broken = false;
  readonly port: number;
  readonly groups = new Set<string>();
  closed = false;
  private readonly queue: ArrayBuffer[] = [];
  private readablePending = false;
  private readonly onReadable?: (count: number) => void;

  constructor(options: UdpOptions) {
    if (UDP.broken) throw new Error('bind failed');
    this.port = options.port ?? 0;
    this.onReadable = options.onReadable?.bind(this);
    UDP.open.push(this);
  }

  static reset(): void {
    UDP.open.length = 0;
    UDP.sent.length = 0;
    UDP.refuseWrites = 0;
    UDP.broken = false;
  }

  /** A packet from the network to every open socket on `port` that hears `to` (a joined group). */
  static deliver(bytes: Uint8Array, from: string, fromPort: number, to = '224.0.0.251', port = 5353): void {
    for (const s of UDP.open) if (!s.closed && s.port === port && (!to.startsWith('224.') || s.groups.has(to))) s.arrive(bytes, from, fromPort);
  }

  private arrive(bytes: Uint8Array, address: string, port: number): void {
    const buffer = Uint8Array.from(bytes).buffer as ArrayBuffer & { address?: string; port?: number };
    buffer.address = address;
    buffer.port = port;
    this.queue.push(buffer);
    if (this.readablePending || !this.onReadable) return;
    this.readablePending = true;
    net.later(() => {
      this.readablePending = false;
      if (!this.closed && this.queue.length) this.onReadable!(this.queue.length);
    });
  }

  read(): (ArrayBuffer & { address: string; port: number }) | undefined {
    if (this.closed) throw new Error('closed');
    return this.queue.shift() as (ArrayBuffer & { address: string; port: number }) | undefined;
  }

  write(buffer: ArrayBuffer | ArrayBufferView, address: string, port: number): void {
    if (this.closed) throw new Error('closed');
    if (!/^\d+\.\d+\.\d+\.\d+$/.test(address)) throw new RangeError('invalid IP address');
    if (UDP.refuseWrites > 0) {
      UDP.refuseWrites--;
      throw new Error('UDP send failed');
    }
    const view = ArrayBuffer.isView(buffer) ? new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength) : new Uint8Array(buffer);
    UDP.sent.push({ bytes: Uint8Array.from(view), address, port });
  }

  /** Joins a multicast group (as ESP32's add() does, on every interface with an address). */
  add(address: string): void {
    if (!/^2(2[4-9]|3\d)\./.test(address)) throw new Error('invalid IP address');
    this.groups.add(address);
  }

  remove(address: string): void {
    this.groups.delete(address);
  }

  close(): void {
    this.closed = true;
    this.queue.length = 0;
  }
}
