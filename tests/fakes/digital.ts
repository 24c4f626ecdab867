// Fake of ECMA-419 embedded:io/digital: levels live in tests/fakes/io.ts. As on an ESP32, a pin held by
// another io object is "in use", and opening a pin makes it a plain GPIO (it leaves the LEDC).
// Pulls as the chip named by pins.chip sets them: the ESP32 sets one on every input open, Input floating
// (modules/io/digital/esp32/digitalbank.c:200-212); the Pico's Input leaves the pulls as they are
// (modules/io/digital/pico/digitalbank.c:187-189), so a pin opened first after reset keeps the RP2040's
// reset pull-down, and its close clears them (:300). An input nothing drives reads its pull.

import { check, pins, unroute } from './io';

const PULLS: { [mode: number]: 'up' | 'down' | 'none' } = { 1: 'up', 2: 'down', 3: 'up' };

export default class Digital {
  static readonly Input = 0;
  static readonly InputPullUp = 1;
  static readonly InputPullDown = 2;
  static readonly InputPullUpDown = 3;
  static readonly Output = 8;
  private readonly pin: number;
  private closed = false;
  constructor(options: { pin: number; mode: number }) {
    if (pins.used.has(options.pin)) throw new Error('in use');
    check(options.pin);
    this.pin = options.pin;
    pins.used.add(this.pin);
    unroute(this.pin);
    const mode = options.mode;
    if (PULLS[mode]) pins.pull.set(this.pin, PULLS[mode]);
    else if (mode === Digital.Input && pins.chip === 'esp32') pins.pull.set(this.pin, 'none');
  }
  /** The pull this pin has now (a Pico pin never set: the reset pull-down). */
  static pullOf(pin: number): 'up' | 'down' | 'none' {
    return pins.pull.get(pin) ?? (pins.chip === 'pico' ? 'down' : 'none');
  }
  read(): number {
    const driven = pins.level.get(this.pin);
    if (driven !== undefined) return driven;
    const pull = Digital.pullOf(this.pin);
    return pull === 'up' ? 1 : pull === 'down' ? 0 : pins.floating;
  }
  write(value: number): void {
    if (this.closed) throw new Error('closed');
    check(this.pin);
    pins.level.set(this.pin, value ? 1 : 0);
  }
  close(): void {
    if (!this.closed) {
      pins.used.delete(this.pin);
      if (pins.chip === 'pico') pins.pull.set(this.pin, 'none');
    }
    this.closed = true;
  }
}
