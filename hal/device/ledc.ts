// What an ESP32 PWM output can make, as the Moddable SDK drives the LEDC (modules/io/pwm/esp32/_pwm.c):
// a frequency in whole Hz and a resolution of 8..14 bits, where the SDK refuses a frequency below its
// measured minimum for the resolution (RangeError) and the LEDC timer cannot divide its 80 MHz clock
// to more than 80 MHz / 2^resolution (a plain Error). The module passes the finest resolution that
// makes the frequency, so every frequency from 2 Hz to 312,500 Hz is possible: signal periods of
// 3,200 ns to 500,000,000 ns, published as signal/t3time's limits. Servos at 50 Hz get 14 bits: 1.2 µs
// steps, finer than the 7.8 µs of one position.

import { deepFreeze } from '../../util/freeze';

const LOW_RES = 8;
const HIGH_RES = 14;
/** The SDK's measured lowest frequency at 8..14 bits (ESP32, ESP32-S2, C6, H2). */
const MIN_HZ: readonly number[] = deepFreeze([65, 33, 17, 9, 5, 3, 2]);
const CLOCK_HZ = 80000000;

export const PWM_MIN_HZ = 2;
export const PWM_MAX_HZ = CLOCK_HZ / 256; // 312,500 Hz at 8 bits
/** signal/t3time limits (ns): the periods of PWM_MAX_HZ and PWM_MIN_HZ. */
export const MIN_PERIOD_NS = 1e9 / PWM_MAX_HZ; // 3,200
export const MAX_PERIOD_NS = 1e9 / PWM_MIN_HZ; // 500,000,000

/** The finest resolution (bits) at which the LEDC makes `hz`, or 0 when none does. */
export function ledcResolution(hz: number): number {
  for (let bits = HIGH_RES; bits >= LOW_RES; bits--) {
    if (hz >= MIN_HZ[bits - LOW_RES] && hz * Math.pow(2, bits) <= CLOCK_HZ) return bits;
  }
  return 0;
}
