// Fake of ECMA-419 embedded:io/digital: levels live in tests/fakes/io.ts. As on an ESP32, a pin held by
// another io object is "in use", and opening a pin makes it a plain GPIO (it leaves the LEDC).

import { check, pins, unroute } from './io';

export default class Digital {
  static readonly Input = 0;
  static readonly Output = 8;
  private readonly pin: number;
  private closed = false;
  constructor(options: { pin: number; mode: number }) {
    if (pins.used.has(options.pin)) throw new Error('in use');
    check(options.pin);
    this.pin = options.pin;
    pins.used.add(this.pin);
    unroute(this.pin);
  }
  read(): number {
    return pins.level.get(this.pin) ?? 0;
  }
  write(value: number): void {
    if (this.closed) throw new Error('closed');
    check(this.pin);
    pins.level.set(this.pin, value ? 1 : 0);
  }
  close(): void {
    if (!this.closed) pins.used.delete(this.pin);
    this.closed = true;
  }
}
