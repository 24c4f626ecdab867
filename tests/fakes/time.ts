// Fake of Moddable's `time` module: ticks are the fake network's virtual milliseconds, as the ESP32
// hands them to XS (modules/base/time/esp/modTime.c sets the millisecond count with xsmcSetInteger): a
// signed 32-bit integer, negative from 2^31 ms (24.8 days) on, back through 0 at 2^32. A test that sets
// net.now near 2^31 runs the device code across that wrap.

import { net } from './net';

export default class Time {
  static get ticks(): number {
    return net.now | 0;
  }
  /** The clock set by SNTP: the fake keeps Date as it is. */
  static set(_seconds: number): void { /* Date is the host's */ }
}
