// Fake of ECMA-419 embedded:io/socket/tcp over the fake network: `onWritable(count)` reports the bytes
// the network takes now (the connection's window less what the client has not taken), a write beyond it
// throws as the real one does ("would block"), and a peer's close arrives as onError.
// With net.lwip set (tests/fakes/lwip-heap.ts) the socket is the Pico W's lwIP one: each write takes
// pbufs from the stack's small heap, a write the heap cannot take throws "would block" and leaves the
// socket whole (the project's write, native/socket-lwip/tcp-guards.h; with net.sdkWrites, the SDK's:
// lost with only a trace, and the socket ended, modules/io/socket/lwip/tcp.c:402-404, then onError),
// and the peer acknowledges (takes)
// the bytes net.lwip.ackDelayMs of virtual time after they were written, freeing their pbufs.
// Its events come as the SDK's lwIP socket gives them (modules/io/socket/lwip/tcp.c): every cause only
// sets a bit, and one delivery per socket, queued by the first bit, reports them all (tcpTrigger,
// :597-613); an error in that delivery drops the writable event (:485-487) and waits until the
// received bytes are read (:507-508, :365-367). A peer's ACK and its FIN that arrive together (a client
// that closes once it has its answer) reach the server as onError alone: no onWritable after its last
// ACK. Its close is the module's Pico W build's (native/socket-pico/tcp-locked.c: lwIP's tcp_close,
// tcp_abort only when that fails): lwIP keeps the segments the peer has not acknowledged and delivers
// them, and frees each once acknowledged; a peer that acknowledges nothing (gone from the network)
// has them retransmitted until lwIP gives up (PICO_GIVE_UP_MS), and only then are they freed, with
// the pcb, and the socket told (tcpError, modules/io/socket/lwip/tcp.c:534-542) while it is still
// open. A close with received bytes unread takes tcp_close's RST path instead (lwIP src/core/tcp.c:
// 352-371), which frees everything at once; the SDK's own close (tcp_close then tcp_abort,
// modules/network/socket/lwip/modLwipSafe.h:32) then frees that pcb a second time, which is counted.

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

/**
 * net.lwip: lwIP's retransmission state of a socket with unacknowledged bytes (kept apart, so a socket
 * of a test without net.lwip holds no more slots than before): when the peer last acknowledged
 * something (or the first byte went), the pending give-up check, and whether lwIP gave up.
 */
interface Retransmission { progressAt: number; check: unknown; dropped: boolean }
const retransmissions = new Map<TCP, Retransmission>();

function retransmission(t: TCP): Retransmission {
  let r = retransmissions.get(t);
  if (!r) retransmissions.set(t, (r = { progressAt: net.now, check: null, dropped: false }));
  return r;
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
      if (!this.segments.lengths.length) retransmission(this).progressAt = net.now; // the first byte in flight
      if (!heap.write(this.segments, bytes.length)) {
        // The project's write (native/socket-lwip/tcp-guards.h): lwIP's ERR_MEM throws "would block" and
        // the socket stays whole. The SDK's own traced "tcp write failed" and failed the socket.
        if (net.sdkWrites) {
          net.traces.push('tcp write failed\n'); // and nothing else: the bytes are gone
          net.later(() => { this.ready = false; if (!conn.serverClosed) this.fireError(); });
          return;
        }
        throw new Error('would block');
      }
      net.later(() => heap.output(this.segments)); // the SDK's kTCPOutput message: tcp_output
      net.setTimer(() => this.acknowledged(), heap.ackDelayMs, false);
      this.retransmitting();
    }
    conn.down.push(bytes);
    if (!heap) net.notifyDelivered(conn);
  }

  /** net.lwip: the peer takes what was sent and acknowledges it; lwIP frees those segments. */
  private acknowledged(): void {
    const conn = this.conn!;
    const r = retransmission(this);
    if (r.dropped) return;
    const before = conn.down.length;
    conn.client.take();
    const acked = before - conn.down.length;
    if (acked) r.progressAt = net.now;
    net.lwip?.ack(this.segments, acked);
  }

  /** net.lwip: lwIP retransmits unacknowledged segments until it gives up (tcp_slowtmr). */
  private retransmitting(): void {
    const r = retransmission(this);
    if (r.check) return;
    const heap = net.lwip!;
    r.check = net.setTimer(() => {
      r.check = null;
      if (!this.segments.lengths.length) { if (!r.dropped) retransmissions.delete(this); return; }
      if (net.now - r.progressAt < heap.giveUpMs) { this.retransmitting(); return; }
      r.dropped = true; // tcp_pcb_purge, then the pcb freed and tcpError called (src/core/tcp.c:1386-1413)
      heap.release(this.segments);
      this.conn!.down.all();
      if (!this.conn!.serverClosed) { this.ready = false; this.fireError(); }
    }, r.progressAt + heap.giveUpMs - net.now, false);
  }

  close(): void {
    const conn = this.conn;
    if (!conn || conn.serverClosed) return;
    conn.serverClosed = true;
    const heap = net.lwip;
    if (heap && conn.up.length) {
      // tcp_close with received bytes the application never took (no tcp_recved: the receive window is not
      // whole) sends a RST and frees the pcb (lwIP src/core/tcp.c:352-371); the SDK's tcp_abort after it
      // frees it again (tcp.c:621): lwIP's pool then hands that pcb to two connections.
      heap.pcbsFreedTwice++;
      heap.release(this.segments); // and what the peer has not acknowledged never reaches it
      conn.down.all();
    } else if (!heap) net.notifyDelivered(conn); // bytes already written still reach the client (FIN after data)
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
