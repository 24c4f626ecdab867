// `--answer-time MS`: the simulator answers at a module's pace instead of this machine's. A module's
// engine handles one request at a time and takes milliseconds for it; a simulator on a desktop
// takes tens of microseconds. With a pace, what the sockets read is handled one read at a time, in
// the order read, each MS after the engine took it up (so at most one read every MS across every
// connection of the simulator), so scripts, the host server's queue and timeouts meet the waits
// they would meet on hardware (docs/simulator.md).

import type { Connection } from '../src/http/connection';

/** The socket a turn came from: it reads nothing more while its turn waits, as a busy module's does not. */
export interface PacedSocket {
  readonly destroyed: boolean;
  readonly writableEnded: boolean;
  pause(): unknown;
  resume(): unknown;
}

/** One read of one socket, waiting its turn: its bytes copied (`null`: the peer ended its side). */
interface Turn {
  readonly connection: Connection;
  readonly bytes: Buffer | null;
  readonly socket: PacedSocket;
  /** When it was read (ms, performance.now()). */
  readonly at: number;
}

export class Pacer {
  private readonly queue: Turn[] = [];
  private head = 0;
  /** When the engine is next free (ms, performance.now()). */
  private freeAt = 0;
  private timer: NodeJS.Timeout | null = null;
  /** Sockets with a turn waiting: kept paused until it is taken. */
  private readonly waiting = new Set<PacedSocket>();

  constructor(private readonly ms: number, private readonly deliver: (connection: Connection, bytes: Uint8Array, end: number) => void) {}

  /** A read (bytes[0, end), copied: the caller's buffer is reused) or, with `bytes` null, an end. */
  push(socket: PacedSocket, connection: Connection, bytes: Uint8Array | null, end: number): void {
    socket.pause();
    this.waiting.add(socket);
    this.queue.push({ connection, bytes: bytes === null ? null : Buffer.from(bytes.subarray(0, end)), socket, at: performance.now() });
    if (this.timer === null) this.schedule();
  }

  /** The first turn waiting is answered `ms` after the engine takes it: when it is free, or at once. */
  private schedule(): void {
    const first = this.queue[this.head];
    const due = Math.max(this.freeAt, first.at) + (first.bytes === null ? 0 : this.ms); // an end is no work
    this.freeAt = due;
    // Node's timers count whole milliseconds and drop the fraction: rounded up, never early.
    this.timer = setTimeout(() => this.next(), Math.ceil(due - performance.now()));
  }

  private next(): void {
    this.timer = null;
    const turn = this.queue[this.head++];
    this.waiting.delete(turn.socket);
    if (this.head === this.queue.length) {
      this.queue.length = 0;
      this.head = 0;
    }
    if (!turn.socket.destroyed) {
      if (turn.bytes === null) {
        turn.connection.end();
      } else {
        this.deliver(turn.connection, turn.bytes, turn.bytes.length);
        if (!turn.socket.writableEnded) turn.socket.resume(); // a connection closed by its answer reads no more
      }
    }
    if (this.head < this.queue.length) this.schedule();
  }

  /** Does `socket` have a turn waiting (so it must stay paused)? */
  holds(socket: PacedSocket): boolean {
    return this.waiting.has(socket);
  }

  close(): void {
    this.waiting.clear();
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.queue.length = 0;
    this.head = 0;
  }
}
