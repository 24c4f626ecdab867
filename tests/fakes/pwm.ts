// Fake of ECMA-419 embedded:io/pwm: 10-bit duty; a frequency outside 1 Hz..40 MHz throws RangeError as
// the ESP32 LEDC driver does. Open outputs are recorded in tests/fakes/io.ts.

import { pins } from './io';

export default class PWM {
  readonly resolution = 10;
  private readonly pin: number;
  constructor(options: { pin: number; hz?: number }) {
    const hz = options.hz ?? 1024;
    if (!(hz >= 1 && hz <= 40000000)) throw new RangeError(`invalid frequency ${hz}`);
    this.pin = options.pin;
    pins.pwm.set(this.pin, { hz, value: 0 });
  }
  write(value: number): void {
    const o = pins.pwm.get(this.pin);
    if (!o) throw new Error('closed');
    o.value = value;
  }
  close(): void {
    pins.pwm.delete(this.pin);
  }
}
