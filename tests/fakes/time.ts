// Fake of Moddable's `time` module: ticks are the fake network's virtual milliseconds, as the ESP32
// hands them to XS (modules/base/time/esp/modTime.c sets the millisecond count with xsmcSetInteger): a
// signed 32-bit integer, negative from 2^31 ms (24.8 days) on, back through 0 at 2^32. A test that sets
// net.now near 2^31 runs the device code across that wrap.
//
// Date is the host's unless a test calls chipDate(): then Date.now() reads the chip's clock as XS
// does on a board with no battery-backed clock, 1970 at power-up, running with the virtual
// milliseconds, and moved by Time.set (what SNTP's answer does: modules/network/sntp/sntp.js).
// chipDate('pico') is the Pico's: XS reads the time of day as a uint32_t of milliseconds since boot
// (net.now here) plus whole seconds that Time.set keeps (xs/platforms/pico/xsHost.c:232-255,
// modGetTimeOfDay, modSetTime), so Date.now() falls back by 2^32 ms 49.7 days after boot.

import { net } from './net';

const hostNow = Date.now;
/** Date.now() - net.now while the chip's clock is in use. */
let base = 0;
/** The Pico's clock: gTimeOfDayOffset, seconds (xsHost.c). */
let picoSeconds = 0;

/** pico_milliseconds() as xsHost.c keeps it, in a uint32_t. */
const picoMs = (): number => net.now % 2 ** 32;

/** Every Time.set, in seconds. */
export const clockSets: number[] = [];

/** Date.now() reads the chip's clock: from 1970 at this moment (esp32), or at the Pico's boot (net.now 0). */
export function chipDate(chip: 'esp32' | 'pico' = 'esp32'): void {
  base = -net.now;
  picoSeconds = 0;
  clockSets.length = 0;
  Date.now = chip === 'pico'
    ? () => { const ms = picoMs(); return (Math.floor(ms / 1000) + picoSeconds) * 1000 + ms % 1000; }
    : () => base + net.now;
}

/** Date.now() is the host's again. */
export function hostDate(): void {
  Date.now = hostNow;
}

export default class Time {
  static get ticks(): number {
    return net.now | 0;
  }
  static set(seconds: number): void {
    clockSets.push(seconds);
    base = seconds * 1000 - net.now;
    picoSeconds = seconds - Math.floor(picoMs() / 1000);
  }
}
