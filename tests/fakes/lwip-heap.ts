// The Pico W's lwIP send memory, for tests/fakes/tcp.ts (net.lwip): what build/devices/pico/config/
// lwipopts_examples_common.h gives the stack (SDK 8.2.3): a MEM_SIZE heap of 4,000 bytes (:23, the
// threadsafe-background build: MEM_LIBC_MALLOC 0, :16-21), TCP_MSS 1460 and an 8 x MSS send buffer
// (:29-31), and LWIP_NETIF_TX_SINGLE_PBUF, with which lwIP's tcp_pbuf_prealloc (src/core/tcp_out.c)
// allocates every new segment as one pbuf of a full MSS, whatever its length. A tcp_write (copying) first
// fills the room left in the last segment not yet sent, then takes a pbuf per new segment; one it cannot
// allocate fails the whole write (ERR_MEM). The SDK's socket then only traces "tcp write failed" and
// ends the socket (modules/io/socket/lwip/tcp.c:402-404): the bytes are lost. A segment's pbuf is freed
// once the peer acknowledges all of it.

export const PICO_MEM_SIZE = 4000;
export const PICO_MSS = 1460;
export const PICO_SND_BUF = 8 * PICO_MSS;
/**
 * Heap bytes of one segment's pbuf: the MSS, the headers reserved in front of it (PBUF_TRANSPORT:
 * 14 + 20 + 20, aligned to 56), struct pbuf (16) and the heap's own header (8).
 */
export const SEGMENT_COST = PICO_MSS + 56 + 16 + 8;

/**
 * How long lwIP goes on retransmitting a segment nobody acknowledges before it drops the connection
 * (tcp_slowtmr, lwIP src/core/tcp.c:1235, :1386-1413, in pico-sdk 2.2.0's lib/lwip): TCP_MAXRTX, 12,
 * retransmissions (include/lwip/opt.h:1306), the first after the initial RTO of 3 s
 * (LWIP_TCP_RTO_TIME, opt.h:1375: 6 ticks of 500 ms, tcp.c:1906-1907), each next after that RTO
 * shifted by tcp_backoff {1, 2, 3, 4, 5, 6, 7, 7…} (tcp.c:163-164, :1291-1293), the drop at the tick
 * after the last: 4,603 ticks, about 38 minutes. A peer that is gone acknowledges nothing all that time.
 */
export const PICO_GIVE_UP_MS = (6 + 12 + 24 + 48 + 96 + 192 + 384 + 5 * 768 + 1) * 500;

/** One socket's segments in lwIP: their lengths (oldest first) and the room left in the last unsent one. */
export class SocketSegments {
  lengths: number[] = [];
  room = 0;
  /** Bytes written and not yet acknowledged. */
  get inFlight(): number {
    let n = 0;
    for (const l of this.lengths) n += l;
    return n;
  }
}

export class LwipHeap {
  used = 0;
  /** The most the heap ever held. */
  peak = 0;
  /** Writes lost (tcp_write out of memory). */
  failures = 0;
  /** Sockets closed with received bytes unread: lwIP freed their pcb twice (tests/fakes/tcp.ts close()). */
  pcbsFreedTwice = 0;

  /**
   * @param ackDelayMs virtual time from a write to the peer's acknowledgement
   */
  constructor(readonly ackDelayMs = 20, readonly size = PICO_MEM_SIZE, readonly mss = PICO_MSS, readonly giveUpMs = PICO_GIVE_UP_MS) {}

  /** tcp_write(TCP_WRITE_FLAG_COPY) of `n` bytes: true when queued, false when out of memory (nothing queued). */
  write(s: SocketSegments, n: number): boolean {
    const fill = Math.min(n, s.room);
    const segments = Math.ceil((n - fill) / this.mss);
    if (this.used + segments * SEGMENT_COST > this.size) {
      this.failures++;
      return false;
    }
    this.used += segments * SEGMENT_COST;
    this.peak = Math.max(this.peak, this.used);
    if (fill) s.lengths[s.lengths.length - 1] += fill;
    s.room -= fill;
    for (let rest = n - fill; rest > 0; rest -= this.mss) {
      const len = Math.min(rest, this.mss);
      s.lengths.push(len);
      s.room = this.mss - len;
    }
    return true;
  }

  /** tcp_output ran (the message after a write): what was queued is sent, no room is left to fill. */
  output(s: SocketSegments): void {
    s.room = 0;
  }

  /** The peer acknowledged `n` more bytes: the segments it completes are freed. */
  ack(s: SocketSegments, n: number): void {
    while (s.lengths.length && n >= s.lengths[0]) {
      n -= s.lengths.shift()!;
      this.used -= SEGMENT_COST;
    }
    if (s.lengths.length && n > 0) s.lengths[0] -= n; // a partly acknowledged segment keeps its pbuf
    if (!s.lengths.length) s.room = 0;
  }

  /** The connection is reset or dropped (lwIP gave up retransmitting): lwIP frees what it still held for it. */
  release(s: SocketSegments): void {
    this.used -= s.lengths.length * SEGMENT_COST;
    s.lengths = [];
    s.room = 0;
  }
}
