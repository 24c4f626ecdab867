// Fake of ECMA-419 embedded:io/digital: levels live in tests/fakes/io.ts.

import { pins } from './io';

export default class Digital {
  static readonly Input = 0;
  static readonly Output = 8;
  private readonly pin: number;
  private closed = false;
  constructor(options: { pin: number; mode: number }) {
    this.pin = options.pin;
  }
  read(): number {
    return pins.level.get(this.pin) ?? 0;
  }
  write(value: number): void {
    if (this.closed) throw new Error('closed');
    pins.level.set(this.pin, value ? 1 : 0);
  }
  close(): void {
    this.closed = true;
  }
}
