// Fake of ECMA-419 embedded:io/serial: open ports and their baud rates in tests/fakes/io.ts.

import { check, pins } from './io';

export default class Serial {
  private readonly port: number;
  constructor(options: { port: number; transmit: number; receive: number; baud: number }) {
    check(options.port);
    this.port = options.port;
    pins.serial.set(this.port, options.baud);
  }
  close(): void {
    pins.serial.delete(this.port);
  }
}
