// The network time: once the network is up, the module asks the SNTP server (config.sntp) until one
// answers. The SDK's SNTP tries a server 5 times, 5 s apart, then reports an error and closes
// (modules/network/sntp/sntp.js:38-44,62-73): asking again is this module's job, after 30 s, then 60 s,
// doubling up to an hour. Once answered, it asks again every hour, so that a module up for months
// follows its server (a crystal drifts tens of ppm: seconds a day; a server may be stepped). The
// answer is read to the millisecond (./network-time.ts); Time.set keeps whole seconds, the module clock
// the rest (hal/device/clock.ts trim). A clock set by hand (a PUT to clock/0/…) wins: an answer that
// arrives after it changes nothing, and no more are asked for. Where the clock reads a date after 2023
// already (set before a soft restart), nothing is asked, as the SDK's setup does.

import SNTP from 'sntp';
import Time from 'time';
import Timer from 'timer';
import type { NetworkWatcher } from './network';
import { NetworkTime } from './network-time';

export const CLOCK_RETRY_MIN_MS = 30000;
export const CLOCK_RETRY_MAX_MS = 3600000;
/** Between answered exchanges: the clock follows its server within the hour. */
export const CLOCK_RESYNC_MS = 3600000;
/** Before this (2023-01-03) the clock has not been set. */
const CLOCK_SET_MS = 1672722071000;

/** Who owns the module clock: has it been set by hand since the boot? */
export interface ClockOwner {
  clockSetByHand(): boolean;
  /** The module clock, ms since the epoch. */
  now(): number;
  /** The chip's clock was just set to the whole second of `ms`: the owner keeps the rest. */
  trimClock(ms: number): void;
}

export class ClockSync implements NetworkWatcher {
  private readonly host: string;
  private readonly owner: ClockOwner;
  private isUp = false;
  /** An SNTP exchange in progress, or undefined. */
  private asking: NetworkTime | undefined;
  private timer: Timer | undefined;
  private retryMs = CLOCK_RETRY_MIN_MS;
  private done = false;
  /** A server has answered since the boot: the clock is the network's. */
  private answered = false;
  private readonly again = (): void => {
    this.timer = undefined;
    if (this.isUp) this.ask();
  };

  constructor(host: string, owner: ClockOwner) {
    this.host = host;
    this.owner = owner;
  }

  up(): void {
    this.isUp = true;
    if (!this.asking && this.timer === undefined) this.ask();
  }

  /** An exchange under way fails by itself (its socket is dead); the next waits for an address. */
  down(): void {
    this.isUp = false;
  }

  private ask(): void {
    // a clock that reads a date before this module first asked was set before a soft restart: left alone
    if (this.done || this.owner.clockSetByHand() || (!this.answered && Date.now() > CLOCK_SET_MS)) {
      this.done = true;
      return;
    }
    try {
      this.asking = new NetworkTime(this.host, (message, value) => this.heard(message, value));
    } catch (e) {
      trace(`SNTP: ${(e as Error).message}\n`);
      this.retry();
    }
  }

  private heard(message: number, value?: number): void {
    if (message === SNTP.time && value !== undefined) {
      this.asking = undefined;
      if (this.owner.clockSetByHand()) {
        this.done = true;
        trace('SNTP: answer ignored (the clock was set by hand)\n');
        return;
      }
      this.answered = true;
      const before = this.owner.now();
      Time.set(Math.floor(value / 1000)); // the chip's clock takes whole seconds (modTime.c xs_time_set)
      this.owner.trimClock(value);
      const step = Math.round(value - before); // what the module clock moved by
      trace(`SNTP: clock set (${step < 0 ? '' : '+'}${step} ms)\n`);
      this.retryMs = CLOCK_RETRY_MIN_MS;
      this.timer = Timer.set(this.again, CLOCK_RESYNC_MS);
    } else if (message === SNTP.error) {
      this.asking = undefined; // the SDK closes it: nothing returned, no other server
      this.retry();
    }
  }

  private retry(): void {
    trace(`SNTP: no answer from ${this.host}; asking again in ${this.retryMs / 1000} s\n`);
    this.timer = Timer.set(this.again, this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, CLOCK_RETRY_MAX_MS);
  }
}
Object.freeze(ClockSync.prototype);
