// The chip's Date made whole across the 32-bit millisecond wrap. On the Pico, XS's Date reads the
// time of day as a uint32_t of milliseconds since boot plus the seconds Time.set gave
// (xs/platforms/pico/xsHost.c:232-255, modGetTimeOfDay and modSetTime; pico_milliseconds() kept in a
// uint32_t): 2^32 ms (49.7 days) after boot, Date.now() falls back by 2^32 ms. Each reading here is
// compared with the monotonic clock (src/device/ticks.ts): a Date that fell behind it by whole
// multiples of 2^32 ms wrapped, and those are added back; any other jump is Date being set
// (Time.set, from SNTP: modSetTime makes it right again from then on), which ends the correction.
// Where Date never wraps (ESP32: gettimeofday), nothing is ever added.

const WRAP_MS = 2 ** 32;
/** How far Date and the monotonic clock may disagree between two readings without a jump. */
const SLACK_MS = 1000;

export class WallClock {
  private readonly ticks: () => number;
  private lastDate: number;
  private lastTicks: number;
  /** Milliseconds the wraps took from Date since it was last set. */
  private carry = 0;

  /** @param ticks monotonic milliseconds that never wrap (src/device/ticks.ts WrapSafeTicks.now) */
  constructor(ticks: () => number) {
    this.ticks = ticks;
    this.lastDate = Date.now();
    this.lastTicks = ticks();
  }

  /** Milliseconds since the epoch, as Date.now() would read without the wrap. */
  now(): number {
    const date = Date.now();
    const ticks = this.ticks();
    const behind = ticks - this.lastTicks - (date - this.lastDate);
    if (behind > SLACK_MS || behind < -SLACK_MS) {
      const wraps = Math.round(behind / WRAP_MS);
      if (wraps > 0 && Math.abs(behind - wraps * WRAP_MS) <= SLACK_MS) this.carry += wraps * WRAP_MS;
      else this.carry = 0;
    }
    this.lastDate = date;
    this.lastTicks = ticks;
    return date + this.carry;
  }
}
Object.freeze(WallClock.prototype);
