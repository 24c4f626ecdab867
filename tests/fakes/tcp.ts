// Fake of ECMA-419 embedded:io/socket/tcp over the fake network: `onWritable(count)` reports the bytes
// the network takes now (the connection's window less what the client has not taken), a write beyond it
// throws as the real one does ("would block"), and a peer's close arrives as onError.
// With net.lwip set (tests/fakes/lwip-heap.ts) the socket is the Pico W's lwIP one: each write takes
// pbufs from the stack's small heap, a write the heap cannot take is lost with only a trace and ends
// the socket (modules/io/socket/lwip/tcp.c:402-404, then onError), and the peer acknowledges (takes)
// the bytes net.lwip.ackDelayMs of virtual time after they were written, freeing their pbufs.

import { net, type Conn } from './net';
import { SocketSegments } from './lwip-heap';

export interface TCPOptions {
  from?: TCP;
  format?: string;
  onReadable?(this: TCP, count: number): void;
  onWritable?(this: TCP, count: number): void;
  onError?(this: TCP): void;
}

export default class TCP {
  private conn: Conn | null;
  private readonly options: TCPOptions;
  /** lwIP's `ready`: false from a peer's FIN on (tests/fakes/net.ts, finMode 'lwip'). */
  private ready = true;
  /** The segments lwIP holds for this socket (net.lwip only). */
  private readonly segments = new SocketSegments();

  constructor(options: TCPOptions) {
    this.options = options;
    const from = options.from;
    if (!from || !from.conn) throw new Error('fake TCP: only accepted sockets ({from}) are supported');
    this.conn = from.conn;
    from.conn = null;
    this.conn.server = this;
    const conn = this.conn;
    if (conn.clientFin) this.fin();
    net.notifyWritable(conn);
    if (conn.up.length) net.notifyReadable(conn);
  }

  /** What Listener.read() hands out. */
  static accepted(conn: Conn): TCP {
    const t = Object.create(TCP.prototype) as TCP;
    (t as unknown as { conn: Conn; options: TCPOptions }).conn = conn;
    (t as unknown as { options: TCPOptions }).options = {};
    return t;
  }

  get remoteAddress(): string | undefined {
    return this.conn?.address;
  }

  read(buffer: Uint8Array): void {
    const conn = this.open();
    if (buffer.length > conn.up.length) throw new Error('invalid'); // as lwIP: more than is there
    conn.up.take(buffer, buffer.length);
    // The FIN is reported (onError) once the bytes before it are read.
    if (conn.clientFin && !conn.up.length) net.later(() => { if (!conn.serverClosed) this.fireError(); });
  }

  /** The peer's FIN arrived. */
  fin(): void {
    if (this.conn?.finMode === 'lwip') this.ready = false;
  }

  write(bytes: Uint8Array): void {
    const conn = this.open();
    if (!this.ready) throw new Error('not ready');
    if (bytes.length > conn.writable()) throw new Error('would block');
    const heap = net.lwip;
    if (heap) {
      if (!heap.write(this.segments, bytes.length)) {
        net.traces.push('tcp write failed\n'); // and nothing else: the bytes are gone
        net.later(() => { this.ready = false; if (!conn.serverClosed) this.fireError(); });
        return;
      }
      net.later(() => heap.output(this.segments)); // the SDK's kTCPOutput message: tcp_output
      net.setTimer(() => this.acknowledged(), heap.ackDelayMs, false);
    }
    conn.down.push(bytes);
    if (!heap) net.notifyDelivered(conn);
  }

  /** net.lwip: the peer takes what was sent and acknowledges it; lwIP frees those segments. */
  private acknowledged(): void {
    const conn = this.conn!;
    const before = conn.down.length;
    conn.client.take();
    net.lwip?.ack(this.segments, before - conn.down.length);
  }

  close(): void {
    const conn = this.conn;
    if (!conn || conn.serverClosed) return;
    conn.serverClosed = true; // bytes already written still reach the client (FIN after data)
    const heap = net.lwip;
    if (heap) {
      net.setTimer(() => this.acknowledged(), heap.ackDelayMs, false);
      net.setTimer(() => heap.release(this.segments), heap.giveUpMs, false); // a peer that never acknowledges
    } else net.notifyDelivered(conn);
  }

  fireReadable(count: number): void { if (this.options.onReadable) this.options.onReadable.call(this, count); }
  fireWritable(count: number): void { if (this.options.onWritable) this.options.onWritable.call(this, count); }
  fireError(): void { if (this.options.onError) this.options.onError.call(this); }

  private open(): Conn {
    if (!this.conn || this.conn.serverClosed) throw new Error('fake TCP: socket closed');
    return this.conn;
  }
}
