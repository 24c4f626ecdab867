// Monotonic milliseconds from Moddable's Time.ticks. On an ESP32 Time.ticks is a signed 32-bit integer
// (the SDK hands the FreeRTOS millisecond count to XS as an integer): it turns negative after 2^31 ms
// (24.8 days) and wraps again at 2^32. Every deadline of the server (connection timeouts, slot
// eviction, the token lockout, event streams) compares readings of this clock instead, so none of them
// sees the wrap. Each reading adds the signed 32-bit difference from the previous one: exact as long as
// readings are less than 24.8 days apart. The device server reads it every 100 ms while it has
// connections to watch; the module's clock is also read by its own timer (keepFed), so an idle module
// or a network outage of any length, with no server ticking, does not break it. On the desktop host Time.ticks is a double that never wraps, and the
// difference is the same.

import Time from 'time';
import Timer from 'timer';

/** How often keepFed() reads the clock: far under the 24.8 days a reading may lag. */
export const FEED_MS = 3600000;

export class WrapSafeTicks {
  private last: number;
  private total: number;

  constructor() {
    this.last = Time.ticks;
    // From the chip's count as it keeps it (unsigned): a first reading past 2^31 ms is negative on an
    // ESP32 (and on the Pico W, whose timer an emulator may start days on), and the readers of this
    // clock take a time below zero for "none" (src/dns/mdns-responder.ts: nothing would be announced).
    this.total = this.last < 0 ? this.last + 2 ** 32 : this.last;
  }

  /** Milliseconds, never decreasing, never wrapping (a bound function: hand it on as is). */
  readonly now = (): number => {
    const t = Time.ticks;
    this.total += (t - this.last) | 0;
    this.last = t;
    return this.total;
  };

  /** Read the clock every FEED_MS for as long as the module runs, whoever else reads it or not. */
  keepFed(): void {
    Timer.repeat(this.now, FEED_MS);
  }
}
Object.freeze(WrapSafeTicks.prototype);
