// Fake of ECMA-419 embedded:io/socket/tcp over the fake network: `onWritable(count)` reports the bytes
// the network takes now (the connection's window less what the client has not taken), a write beyond it
// throws as the real one does ("would block"), and a peer's close arrives as onError.
// With net.lwip set (tests/fakes/lwip-heap.ts) the socket is the Pico W's lwIP one: each write takes
// pbufs from the stack's small heap, a write the heap cannot take is lost with only a trace and ends
// the socket (modules/io/socket/lwip/tcp.c:402-404, then onError), and the peer acknowledges (takes)
// the bytes net.lwip.ackDelayMs of virtual time after they were written, freeing their pbufs.
// Its events come as the SDK's lwIP socket gives them (modules/io/socket/lwip/tcp.c): every cause only
// sets a bit, and one delivery per socket, queued by the first bit, reports them all (tcpTrigger,
// :597-613); an error in that delivery drops the writable event (:485-487) and waits until the
// received bytes are read (:507-508, :365-367). A peer's ACK and its FIN that arrive together (a client
// that closes once it has its answer) reach the server as onError alone: no onWritable after its last
// ACK. Its close is the SDK's tcp_close_safe for the Pico, tcp_close then tcp_abort
// (modules/network/socket/lwip/modLwipSafe.h:32): a RST, and lwIP frees the segments it still held
// (lwIP src/core/tcp.c:604-608), so bytes the peer has not acknowledged are lost. The module's Pico W
// build closes as lwIP does instead (native/socket-pico/tcp-locked.c: tcp_abort only when tcp_close
// fails), which keeps those bytes; the fake keeps the SDK's harsher close, so a transport that passes
// here waits for its last bytes to be acknowledged under either.

import { net, type Conn } from './net';
import { SocketSegments } from './lwip-heap';

export interface TCPOptions {
  from?: TCP;
  format?: string;
  /** tcp_nagle_disable on the pcb (modules/io/socket/lwip/tcp.c:130-132, 204-208): no fake models Nagle. */
  nodelay?: boolean;
  onReadable?(this: TCP, count: number): void;
  onWritable?(this: TCP, count: number): void;
  onError?(this: TCP): void;
}

/** The SDK's trigger bits (modules/io/socket/lwip/tcp.c:51-56). */
const WRITABLE = 1;
const READABLE = 2;
const ERROR = 4;

export default class TCP {
  private conn: Conn | null;
  private readonly options: TCPOptions;
  /** lwIP's `ready`: false from a peer's FIN on (tests/fakes/net.ts, finMode 'lwip'). */
  private ready = true;
  /** The segments lwIP holds for this socket (net.lwip only). */
  private readonly segments = new SocketSegments();
  /** net.lwip: the events waiting for this socket's one delivery (tcp->triggered), and tcp->error. */
  private triggered = 0;
  private error = false;

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

  /** The test's view of the nodelay option it was made with (the SDK's TCP has no such property). */
  get nodelay(): boolean {
    return this.options.nodelay === true;
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

  /** The count read, or nothing when no bytes wait (modules/io/socket/lwip/tcp.c:308-309, 326). */
  read(buffer: Uint8Array): number | undefined {
    const conn = this.open();
    if (!conn.up.length) return undefined;
    if (buffer.length > conn.up.length) throw new Error('invalid'); // as lwIP: more than is there (:331-332)
    conn.up.take(buffer, buffer.length);
    // The FIN is reported (onError) once the bytes before it are read.
    if (conn.clientFin && !conn.up.length) net.later(() => { if (!conn.serverClosed) this.fireError(); });
    return buffer.length;
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
    conn.serverClosed = true;
    const heap = net.lwip;
    if (heap) {
      // tcp_close with received bytes the application never took (no tcp_recved: the receive window is not
      // whole) sends a RST and frees the pcb (lwIP src/core/tcp.c:352-371); the tcp_abort after it frees it
      // again (tcp.c:621): lwIP's pool then hands that pcb to two connections.
      if (conn.up.length) heap.pcbsFreedTwice++;
      // tcp_close then tcp_abort: what the peer has not acknowledged never reaches it, and lwIP holds nothing more.
      heap.release(this.segments);
      conn.down.all();
    } else net.notifyDelivered(conn); // bytes already written still reach the client (FIN after data)
  }

  fireReadable(count: number): void {
    if (net.lwip) this.trigger(READABLE);
    else if (this.options.onReadable) this.options.onReadable.call(this, count);
  }

  fireWritable(count: number): void {
    if (net.lwip) this.trigger(WRITABLE);
    else if (this.options.onWritable) this.options.onWritable.call(this, count);
  }

  fireError(): void {
    if (net.lwip) this.trigger(ERROR);
    else if (this.options.onError) this.options.onError.call(this);
  }

  /** tcpTrigger (modules/io/socket/lwip/tcp.c:597-613): a delivery is queued by the first bit only. */
  private trigger(bit: number): void {
    const first = this.triggered === 0;
    this.triggered |= bit;
    if (first) net.later(() => this.deliver());
  }

  /** tcpDeliver (modules/io/socket/lwip/tcp.c:474-525). */
  private deliver(): void {
    let t = this.triggered;
    this.triggered = 0;
    const conn = this.conn;
    if (!conn || conn.serverClosed) return; // doClose cleared the triggers
    if (t & ERROR) {
      t &= ~WRITABLE;
      this.error = true;
      this.ready = false;
    }
    const o = this.options;
    if (t & READABLE && conn.up.length && o.onReadable) o.onReadable.call(this, conn.up.length);
    if (conn.serverClosed) return;
    if (conn.up.length && this.error) return; // the error comes once the received bytes are read
    if (!this.error) {
      if (t & WRITABLE && o.onWritable) o.onWritable.call(this, conn.writable());
    } else if (o.onError) o.onError.call(this);
  }

  private open(): Conn {
    if (!this.conn || this.conn.serverClosed) throw new Error('fake TCP: socket closed');
    return this.conn;
  }
}
