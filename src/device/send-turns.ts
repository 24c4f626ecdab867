// The pacing of a server's socket writes on a board whose lwIP heap is small. On the Pico W (MEM_SIZE
// 4,000 bytes, and every segment one pbuf of a full MSS: build/devices/pico/config/
// lwipopts_examples_common.h:19-23 and LWIP_NETIF_TX_SINGLE_PBUF) a write the heap cannot take is
// lost: tcp_write fails, the SDK only traces "tcp write failed" and ends the socket
// (modules/io/socket/lwip/tcp.c:402-404). So: at most `max` writes of at most writeMax bytes (one
// segment each) in flight at once, held until their peer has acknowledged them, and one of them per
// socket: a socket that vanished keeps what it holds for as long as lwIP retransmits (below), so one
// such client must never hold the whole heap. It holds which sockets have bytes in flight and which
// wait, so a socket carries no state for it. One per server (not preloaded data: made at run time by
// the DeviceServer).

// A write lwIP's heap refuses all the same (a SYN-ACK or FIN segment of another connection in the hole a
// segment left) throws "would block" (native/socket-lwip/tcp-guards.h): its turn goes back, and the
// socket waits for one again (refused), written at the next acknowledgement or the server's tick.
// A socket's turn ends when lwIP no longer holds its bytes (src/device/transport.ts):
// - onWritable reports its whole send buffer free again: all acknowledged;
// - it closes after its peer's FIN or an error: a peer's FIN that arrives with (or just after) its
//   last ACK reaches the socket as onError alone, and no onWritable ever comes after it (the SDK drops
//   the writable event when an error is in the same delivery and unhooks tcp_sent on the FIN,
//   modules/io/socket/lwip/tcp.c:485-487, 550);
// - a peer that leaves in the middle of an answer (its FIN, a RST after it): from the FIN on the socket
//   takes no write and reports no acknowledgement, so the connection closes at once and keeps its turn
//   until lwIP frees it (the RST comes as onError) or LINGER_MS pass (transport.ts failedNow);
// - a peer that acknowledges nothing more (gone from the network) is another matter: lwIP keeps its
//   segment after the close too, since the module's close is lwIP's own (native/socket-pico/
//   tcp-locked.c: tcp_close, which leaves the segments to be retransmitted), until TCP_MAXRTX (12)
//   retransmissions have failed: from lwIP's 3 s initial RTO doubling to 384 s (src/core/tcp.c:163-164,
//   :1235, :1291-1293; LWIP_TCP_RTO_TIME, TCP_MAXRTX in include/lwip/opt.h), about 38 minutes. Handing
//   its turn on at the close would let two more sockets write into the 1,540 bytes it still holds,
//   and the third segment would not fit. Such a connection, once it lingered in vain, gives its
//   connection slot up but keeps its socket open and its turn (HELD) until its bytes are acknowledged
//   after all (onWritable), or lwIP drops the connection and says so (its tcp_err callback, tcpError,
//   modules/io/socket/lwip/tcp.c:534-542, from tcp_slowtmr, lwIP src/core/tcp.c:1386-1413), or
//   HELD_MAX_MS pass (transport.ts).

/** A socket's transport, as the pacing sees it. */
export interface TurnTaker {
  /** A turn it was waiting for came: write now. */
  turnCame(): void;
}

/**
 * The pacing of a server's writes on a board with a small lwIP heap (none: writes go as far as the
 * socket says). It holds which sockets have bytes in flight, so a socket carries no state for it.
 */
export class SendTurns {
  /** Bytes one write may carry. */
  readonly writeMax: number;
  /** The socket's whole send buffer, as its first onWritable reports it (nothing sent yet). */
  capacity = 0;
  private readonly max: number;
  /** A socket for each turn in flight (bytes the peer has not acknowledged yet; at most `max`). */
  private readonly holders: TurnTaker[] = [];
  /** Sockets with bytes to write, waiting for a turn (in the order they asked). */
  private readonly waiting: TurnTaker[] = [];

  constructor(writeMax: number, max: number) {
    this.writeMax = writeMax;
    this.max = max > 0 ? max : 0x7fffffff;
  }

  holds(t: TurnTaker): boolean {
    return this.holders.indexOf(t) >= 0;
  }

  isWaiting(t: TurnTaker): boolean {
    return this.waiting.indexOf(t) >= 0;
  }

  /** A turn for one write of `t`, or false (and `t` is written when one comes free): a free turn when `t` holds none. */
  take(t: TurnTaker): boolean {
    const holders = this.holders;
    if (holders.length < this.max && holders.indexOf(t) < 0) {
      holders.push(t);
      return true;
    }
    if (holders.indexOf(t) < 0 && this.waiting.indexOf(t) < 0) this.waiting.push(t);
    return false;
  }

  /** `t`'s bytes were all acknowledged, or it closed: its turns go to the sockets waiting. */
  give(t: TurnTaker): void {
    const holders = this.holders;
    let k = holders.indexOf(t);
    if (k < 0) return;
    for (; k >= 0; k = holders.indexOf(t)) holders.splice(k, 1);
    this.handOn();
  }

  /** The write `t` took its latest turn for did not happen: that turn alone goes back. */
  putBack(t: TurnTaker): void {
    const k = this.holders.lastIndexOf(t);
    if (k < 0) return;
    this.holders.splice(k, 1);
    this.handOn();
  }

  /**
   * A write of `t` was refused for want of room in lwIP's heap: the turn it took goes back, and it waits
   * for one again, behind the others, until an acknowledgement frees one or the server's tick (resume).
   */
  refused(t: TurnTaker): void {
    const k = this.holders.lastIndexOf(t);
    if (k >= 0) this.holders.splice(k, 1);
    if (this.waiting.indexOf(t) < 0) this.waiting.push(t);
  }

  /** The server's tick: free turns to the sockets waiting (one whose write was refused tries again). */
  resume(): void {
    this.handOn();
  }

  /** Free turns to the sockets waiting, in the order they asked; each once (one refused again waits on). */
  private handOn(): void {
    const waiting = this.waiting;
    for (let n = waiting.length; n > 0 && this.holders.length < this.max; n--) waiting.shift()!.turnCame();
  }

  /** `t` is closed and lwIP holds nothing of it: it waits for no turn, and a turn it holds goes to the next socket. */
  forget(t: TurnTaker): void {
    const k = this.waiting.indexOf(t);
    if (k >= 0) this.waiting.splice(k, 1);
    this.give(t);
  }
}
Object.freeze(SendTurns.prototype);
