// The network time: once the network is up, the module asks the SNTP server (config.sntp) until one
// answers. The SDK's SNTP tries a server 5 times, 5 s apart, then reports an error and closes
// (modules/network/sntp/sntp.js:38-44,62-73): asking again is this module's job, after 30 s, then 60 s,
// doubling up to an hour. A clock set by hand (a PUT to clock/0/…, hal/device/clock.ts) wins: an
// answer that arrives after it changes nothing, and no more are asked for. Where the clock reads a
// date after 2023 already (set before a soft restart), nothing is asked, as the SDK's setup does.

import SNTP from 'sntp';
import Time from 'time';
import Timer from 'timer';
import type { NetworkWatcher } from './network';

export const CLOCK_RETRY_MIN_MS = 30000;
export const CLOCK_RETRY_MAX_MS = 3600000;
/** Before this (2023-01-03) the clock has not been set. */
const CLOCK_SET_MS = 1672722071000;

/** Who owns the module clock: has it been set by hand since the boot? */
export interface ClockOwner {
  clockSetByHand(): boolean;
}

export class ClockSync implements NetworkWatcher {
  private readonly host: string;
  private readonly owner: ClockOwner;
  private isUp = false;
  /** An SNTP exchange in progress (the SDK object), or undefined. */
  private asking: SNTP | undefined;
  private timer: Timer | undefined;
  private retryMs = CLOCK_RETRY_MIN_MS;
  private done = false;
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
    if (this.done || this.owner.clockSetByHand() || Date.now() > CLOCK_SET_MS) {
      this.done = true;
      return;
    }
    try {
      this.asking = new SNTP({ host: this.host }, (message, value) => this.heard(message, value));
    } catch (e) {
      trace(`SNTP: ${(e as Error).message}\n`);
      this.retry();
    }
  }

  private heard(message: number, value?: number): void {
    if (message === SNTP.time && value !== undefined) {
      this.asking = undefined;
      this.done = true;
      if (this.owner.clockSetByHand()) {
        trace('SNTP: answer ignored (the clock was set by hand)\n');
        return;
      }
      Time.set(value);
      trace('SNTP: clock set\n');
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
