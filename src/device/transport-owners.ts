// The callbacks of every DeviceTransport (src/device/transport.ts): one set for all connections
// (preloaded, in flash), each finding its transport in one property of its socket or timer; and what
// a transport tells its server (TransportEvents).

import type TCP from 'embedded:io/socket/tcp';
import type Timer from 'timer';
import type { SendTurns } from './send-turns';
import type { DeviceTransport } from './transport';

/** A socket that knows its transport: one property on it instead of three closures per connection. */
export interface OwnedTCP extends TCP {
  owner: DeviceTransport;
}

/** A timer that knows its transport (Moddable's Timer is an ordinary host object: it takes a property). */
export interface OwnedTimer extends Timer {
  owner: DeviceTransport;
}

/** What a DeviceTransport tells its server (src/device/server.ts). */
export interface TransportEvents {
  /** Bytes arrived: feed them to the Connection (synchronously). */
  data(t: DeviceTransport, bytes: Uint8Array): void;
  /** The peer closed or the socket failed. */
  end(t: DeviceTransport): void;
  /** The socket took queued bytes (onWritable): a streamed answer may make its next pieces. */
  drained(t: DeviceTransport): void;
  /** Call `t.drainNoticed()` soon, outside the socket's callback (one timer for every transport). */
  noticeDrain(t: DeviceTransport): void;
  /** The socket is closed and forgotten. */
  closed(t: DeviceTransport): void;
  /** READ_CHUNK bytes shared by every connection of the server (a read is handed on at once). */
  readonly readBuffer: Uint8Array;
  /** The server's write pacing, or null where the stack takes what the socket says it does. */
  readonly turns: SendTurns | null;
}

// The socket callbacks, one set for every connection (preloaded, in flash): the SDK calls each with
// `this` bound to the socket.
export function onReadable(this: TCP, count: number): void { (this as OwnedTCP).owner.readableNow(count); }
export function onWritable(this: TCP, count: number): void { (this as OwnedTCP).owner.writableNow(count); }
export function onError(this: TCP): void { (this as OwnedTCP).owner.failedNow(); }
// The linger timer's callback, one for every transport: the SDK calls it with its timer
// (modules/base/timer/modTimer.c, xs_timer_callback).
export function onLinger(timer: Timer): void { (timer as OwnedTimer).owner.lingered(); }
