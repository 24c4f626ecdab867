// One accepted TCP socket (ECMA-419 embedded:io/socket/tcp) as the Transport of a Connection.
// Reads go into one buffer the server shares with every connection (this module is preloaded, frozen in
// flash); the request parser copies what it keeps. Writes honour the socket's writable count: the rest
// waits in a queue drained by onWritable, not read past QUEUE_MAX. close() waits for the queue to drain
// so a last answer is not cut off, while the peer takes bytes at least every LINGER_MS: a peer that
// never reads must not keep one of the few connection slots. A peer that half-closes after its request
// still gets the answer where the socket takes writes after its FIN (lwIP does not: the write fails).
// On a board whose lwIP heap is small (the Pico W) the server's SendTurns pace the writes, and a
// connection keeps its send turn after the close while lwIP may still hold its bytes (HELD):
// src/device/send-turns.ts says how and why.

import TCP from 'embedded:io/socket/tcp';
import Timer from 'timer';
import type { Transport } from '../http/connection';
import { discardUnread } from './unread';
import { onError, onLinger, onReadable, onWritable, type OwnedTCP, type OwnedTimer, type TransportEvents } from './transport-owners';
import { dropFront, frontBytes } from './write-queue';

/** One TCP segment's worth: reads larger than this are taken in several steps. */
export const READ_CHUNK = 1460;
/** Queued answer bytes beyond which the connection stops reading requests. */
export const QUEUE_MAX = 8192;
/** How long a closing socket may wait for its peer to take the last answer. */
export const LINGER_MS = 5000;
/** How long a closed connection's unacknowledged bytes may keep its send turn (paced): past lwIP's retries. */
export const HELD_MAX_MS = 2400000;

// DeviceTransport.flags bits (one number rather than a slot each).
/** Bytes written that the stack has not yet reported sent (next onWritable). */
const UNSENT = 1;
const CLOSING = 2;
const DONE = 4;
/** A write threw (not ready, or the socket failed): nothing more will leave. */
const WRITE_FAILED = 8;
/** A drained notice is waiting to run (one at a time). */
const DRAIN_SET = 16;
/** DONE for the server, the socket and its send turn kept while lwIP holds its bytes (paced). */
const HELD = 32;
/** The peer took bytes (onWritable) since the linger timer was set: it is reading, only slowly. */
const TOOK = 64;

export class DeviceTransport implements Transport {
  private readonly tcp: TCP;
  private readonly events: TransportEvents;
  private readable = 0;
  private writable = 0;
  /** Answer bytes waiting for the socket, in order; null while none wait (an idle socket holds no array). */
  private queue: Uint8Array[] | null = null;
  private queued = 0;
  /** UNSENT | CLOSING | DONE | WRITE_FAILED | DRAIN_SET. */
  private flags = 0;
  private flushed: (() => void) | null = null;
  private linger: Timer | undefined;

  constructor(socket: TCP, events: TransportEvents) {
    this.events = events;
    // nodelay: an answer's short last segment leaves beside the one before it, not after the peer's (delayed) ACK.
    const tcp = new TCP({ from: socket, format: 'buffer', nodelay: true, onReadable, onWritable, onError }) as OwnedTCP;
    // The SDK delivers the socket's events later, from its message queue (lwip/tcp.c, lin/tcp.c):
    // the owner is in place before the first.
    tcp.owner = this;
    this.tcp = tcp;
  }

  write(bytes: Uint8Array): void {
    if (this.flags & (DONE | CLOSING)) return;
    this.send(bytes);
  }

  /** Queued answer bytes; an event stream skips ticks while its client lags. */
  backlog(): number {
    return this.queued;
  }

  close(): void {
    if (this.flags & (DONE | CLOSING)) return;
    this.flags |= CLOSING;
    // Paced (the Pico W), the socket closes once its last bytes are acknowledged; a peer that takes
    // nothing in LINGER_MS leaves its socket HELD while lwIP retransmits them (src/device/send-turns.ts).
    if (!this.waiting() && !this.sending()) this.finish();
    else this.lingerFor(LINGER_MS);
  }

  /** lingered() in `ms`: one module-level function for every transport's timer, which carries its transport. */
  private lingerFor(ms: number): void {
    this.flags &= ~TOOK;
    const timer = Timer.set(onLinger, ms) as OwnedTimer;
    timer.owner = this;
    this.linger = timer;
  }

  /** The linger timer fired (or a held socket's time is up). */
  lingered(): void {
    const turns = this.events.turns;
    this.linger = undefined;
    if (this.flags & HELD) this.release();
    // A peer that took bytes meanwhile (or an answer waiting for its send turn) is not one that never reads.
    else if (this.flags & TOOK || (turns && turns.isWaiting(this))) this.lingerFor(LINGER_MS);
    else this.finish(HELD_MAX_MS);
  }

  /** The drain notice after an onWritable runs: a streamed answer may make its next pieces. */
  drainNoticed(): void {
    const flags = this.flags;
    this.flags = flags & ~DRAIN_SET;
    if (!(flags & (DONE | CLOSING))) this.events.drained(this);
  }

  /** Run `then` once everything written so far has left (for the reset after its answer). */
  whenFlushed(then: () => void): void {
    if (this.flags & DONE || (!this.waiting() && !(this.flags & UNSENT))) then();
    else this.flushed = then;
  }

  private send(bytes: Uint8Array): void {
    this.enqueue(bytes);
    this.drain();
  }

  private enqueue(bytes: Uint8Array): void {
    const queue = this.queue;
    if (queue) queue.push(bytes);
    else this.queue = [bytes];
    this.queued += bytes.length;
  }

  /** Do answer bytes wait for the socket? */
  private waiting(): boolean {
    const queue = this.queue;
    return queue !== null && queue.length > 0;
  }

  /** Write queued bytes, in order, as far as the socket's writable count (and the server's pacing) goes. */
  private drain(): void {
    const queue = this.queue;
    if (!queue) return;
    const turns = this.events.turns;
    while (queue.length && this.writable > 0) {
      let room = this.writable;
      if (turns) {
        if (!turns.take(this)) return; // a paced write for each turn it has (send-turns.ts)
        if (room > turns.writeMax) room = turns.writeMax;
      }
      const bytes = frontBytes(queue, room, turns !== null);
      const n = bytes.length;
      try {
        this.tcp.write(bytes);
      } catch (e) {
        if (turns && (e as Error).message === 'would block') {
          turns.refused(this); // no room in lwIP's heap (native/socket-lwip/tcp-guards.h): written again later
          return;
        }
        // The stack had less room than it said, or takes no more writes: wait for onWritable, unless
        // the connection is ending anyway.
        this.writable = 0;
        this.flags |= WRITE_FAILED;
        if (turns) turns.putBack(this);
        if (this.flags & CLOSING) this.finish();
        return;
      }
      this.flags = (this.flags & ~WRITE_FAILED) | UNSENT;
      this.writable -= n;
      this.queued -= n;
      dropFront(queue, n);
    }
    if (!queue.length && this.queue === queue) this.queue = null;
  }

  /** The socket's onReadable (through the module-level callback below). */
  readableNow(count: number): void {
    if (this.flags & (CLOSING | DONE)) {
      // No request of a closing connection is read (a refused one's, one after `Connection: close`):
      // read away at once, since the SDK reports the peer's FIN or RST only once every byte is read,
      // and a FIN that came with the last ACK would otherwise leave the socket open and its turn held.
      discardUnread(this.tcp, this.events.readBuffer, count);
      this.readable = 0;
      return;
    }
    this.readable = count;
    this.pump();
  }

  /** The server's pacing gave this socket a turn it was waiting for. */
  turnCame(): void {
    if (!(this.flags & DONE)) this.drain();
  }

  /** Paced, and bytes written that the peer has not acknowledged yet. */
  private sending(): boolean {
    const turns = this.events.turns;
    return turns !== null && turns.holds(this);
  }

  /** The socket's onWritable. */
  writableNow(count: number): void {
    const turns = this.events.turns;
    if (this.flags & DONE) {
      if (this.flags & HELD && count >= turns!.capacity) this.release(); // lwIP has let the last bytes go
      return;
    }
    if (this.flags & UNSENT && count > this.writable) this.flags |= TOOK; // room back: the peer took bytes
    this.writable = count;
    if (turns) {
      if (count > turns.capacity) turns.capacity = count;
      if (count >= turns.capacity) turns.give(this); // the whole send buffer is free: all acknowledged
    }
    if (!this.waiting() && !this.sending()) {
      // Nothing was waiting: what was written before this event has left.
      this.flags &= ~UNSENT;
      const then = this.flushed;
      this.flushed = null;
      if (then) then();
    }
    this.drain();
    // Heard outside this callback (the server's 0 ms timer runs right after it), so a streamed answer
    // never writes its next piece from inside the socket's own onWritable.
    // The notice is not withdrawn when the socket closes first: drainNoticed() then does nothing.
    if (!(this.flags & (CLOSING | DRAIN_SET))) {
      this.flags |= DRAIN_SET;
      this.events.noticeDrain(this);
    }
    if (this.waiting()) return;
    if (this.flags & CLOSING) {
      if (!this.sending()) this.finish(); // paced: once the last bytes are acknowledged
      return;
    }
    this.pump(); // reading may have paused on a full queue
  }

  /** The socket's onError: the peer closed (its FIN, after its bytes were read) or the socket failed. */
  failedNow(): void {
    if (this.flags & DONE) {
      if (this.flags & HELD) this.release(); // lwIP dropped the connection: nothing of it is held
      return;
    }
    this.events.end(this); // the Connection closes: close() below lingers while an answer is queued
    const flags = this.flags;
    if (flags & DONE) return;
    if (!(flags & CLOSING) || flags & WRITE_FAILED || !this.waiting()) this.finish();
    else if (this.events.turns) {
      // Paced (lwIP): the peer left mid-answer; no write or acknowledgement comes after its FIN
      // (send-turns.ts). Done now, the turn held until lwIP frees the pcb (onError again) or LINGER_MS.
      this.finish(LINGER_MS);
    } else this.drain(); // a half-closed peer still reads: send it the rest (a failing write finishes)
  }

  /** Hand readable bytes to the Connection while the answer queue has room. */
  private pump(): void {
    const buffer = this.events.readBuffer;
    while (!(this.flags & (DONE | CLOSING)) && this.readable > 0 && this.queued <= QUEUE_MAX) {
      const n = Math.min(this.readable, READ_CHUNK);
      const view = n === READ_CHUNK ? buffer : buffer.subarray(0, n);
      this.tcp.read(view);
      this.readable -= n;
      this.events.data(this, view);
    }
  }

  /**
   * Done for the server. `holdMs` (paced): lwIP may still hold bytes of it that its peer has not
   * acknowledged, so the socket and its send turn are kept (HELD) for up to that long.
   */
  private finish(holdMs = 0): void {
    if (this.flags & DONE) return;
    this.flags |= DONE;
    if (this.linger !== undefined) Timer.clear(this.linger);
    this.linger = undefined;
    this.queue = null;
    this.queued = 0;
    if (holdMs > 0 && this.sending()) {
      this.flags |= HELD;
      this.lingerFor(holdMs);
    } else this.release();
    const then = this.flushed;
    this.flushed = null;
    this.events.closed(this);
    if (then) then();
  }

  /** Close the socket and end its send turn: lwIP holds nothing of it, or no longer will for long. */
  private release(): void {
    this.flags &= ~HELD;
    if (this.linger !== undefined) Timer.clear(this.linger);
    this.linger = undefined;
    // Bytes the peer sent that no request will read (a refused body, more after a last request) go first:
    // lwIP frees a socket closed with bytes untaken twice on the Pico W (src/device/unread.ts).
    discardUnread(this.tcp, this.events.readBuffer, this.readable);
    this.readable = 0;
    try { this.tcp.close(); } catch { /* already closed by the peer */ }
    // The next socket's write needs the room lwIP held for this one.
    const turns = this.events.turns;
    if (turns) turns.forget(this);
  }
}
Object.freeze(DeviceTransport.prototype);
