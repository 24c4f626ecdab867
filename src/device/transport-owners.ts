// The callbacks of every DeviceTransport (src/device/transport.ts): one set for all connections
// (preloaded, in flash), each finding its transport in one property of its socket or timer.

import type TCP from 'embedded:io/socket/tcp';
import type Timer from 'timer';
import type { DeviceTransport } from './transport';

/** A socket that knows its transport: one property on it instead of three closures per connection. */
export interface OwnedTCP extends TCP {
  owner: DeviceTransport;
}

/** A timer that knows its transport (Moddable's Timer is an ordinary host object: it takes a property). */
export interface OwnedTimer extends Timer {
  owner: DeviceTransport;
}

// The socket callbacks, one set for every connection (preloaded, in flash): the SDK calls each with
// `this` bound to the socket.
export function onReadable(this: TCP, count: number): void { (this as OwnedTCP).owner.readableNow(count); }
export function onWritable(this: TCP, count: number): void { (this as OwnedTCP).owner.writableNow(count); }
export function onError(this: TCP): void { (this as OwnedTCP).owner.failedNow(); }
// The linger timer's callback, one for every transport: the SDK calls it with its timer
// (modules/base/timer/modTimer.c, xs_timer_callback).
export function onLinger(timer: Timer): void { (timer as OwnedTimer).owner.lingered(); }
