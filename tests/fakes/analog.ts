// Fake of ECMA-419 embedded:io/analog: a 12-bit converter reading tests/fakes/io.ts's pins.analog.

import { pins } from './io';

export default class Analog {
  readonly resolution = 12;
  private readonly pin: number;
  constructor(options: { pin: number }) {
    this.pin = options.pin;
    pins.analogOpen.add(this.pin);
  }
  read(): number {
    return pins.analog.get(this.pin) ?? 0;
  }
  close(): void {
    pins.analogOpen.delete(this.pin);
  }
}
