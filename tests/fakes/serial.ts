// Fake of ECMA-419 embedded:io/serial: open ports and their baud rates in tests/fakes/io.ts.

import { check, pins } from './io';

export default class Serial {
  private readonly port: number;
  constructor(options: { port: number; transmit: number; receive: number; baud: number; onReadable?: () => void; onWritable?: () => void }) {
    // The Pico's driver, opened with neither callback, writes its FIFOs past the record it allocated
    // (Moddable modules/io/serial/pico/serial.c:168, :192-195): refused here, as the heap it corrupts would.
    if (!options.onReadable && !options.onWritable) throw new Error('serial: opened without onReadable or onWritable');
    check(options.port);
    this.port = options.port;
    pins.serial.set(this.port, options.baud);
  }
  read(): undefined {
    return undefined;
  }
  close(): void {
    pins.serial.delete(this.port);
  }
}
