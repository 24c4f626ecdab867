// The pacing of a server's socket writes on a board whose lwIP heap is small (the Pico W: see
// src/device/transport.ts): one write of at most writeMax bytes per socket until its peer has
// acknowledged it, and at most `max` sockets with bytes in flight at once. It holds which sockets have
// bytes in flight and which wait, so a socket carries no state for it. One per server (not preloaded
// data: made at run time by the DeviceServer).

// A socket's turn ends when onWritable reports its whole send buffer free again, or when it closes.
// The close ends it at once: on the Pico W the SDK's close is tcp_close then tcp_abort
// (modules/network/socket/lwip/modLwipSafe.h:32), and lwIP's tcp_abandon frees the segments it still
// held (src/core/tcp.c:604-608). It must: a peer's FIN that arrives with (or just after) its last ACK
// reaches the socket as onError alone, and no onWritable ever comes after it (the SDK drops the
// writable event when an error is in the same delivery and unhooks tcp_sent on the FIN,
// modules/io/socket/lwip/tcp.c:485-487, 550).

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
  /** Sockets with bytes the peer has not acknowledged yet (at most `max`). */
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

  /** A turn for `t`, or false (and `t` is written when one comes free). */
  take(t: TurnTaker): boolean {
    if (this.holders.length < this.max) {
      this.holders.push(t);
      return true;
    }
    if (this.waiting.indexOf(t) < 0) this.waiting.push(t);
    return false;
  }

  /** `t`'s bytes were acknowledged, or it closed: the next waiting socket writes. */
  give(t: TurnTaker): void {
    const k = this.holders.indexOf(t);
    if (k < 0) return;
    this.holders.splice(k, 1);
    const next = this.waiting.shift();
    if (next) next.turnCame();
  }

  /**
   * `t` is closed: it waits for no turn, and a turn it holds goes to the next socket (the close freed
   * whatever lwIP still held for it).
   */
  forget(t: TurnTaker): void {
    const k = this.waiting.indexOf(t);
    if (k >= 0) this.waiting.splice(k, 1);
    this.give(t);
  }
}
Object.freeze(SendTurns.prototype);
