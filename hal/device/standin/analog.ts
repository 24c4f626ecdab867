// Desktop-host (lin) stand-in for embedded:io/analog: a 12-bit converter reading a slow triangle wave,
// different per pin, so successive GETs show a live input.

import Time from 'time';

export default class Analog {
  readonly resolution = 12;
  private readonly pin: number;

  constructor(options: { pin: number; resolution?: number }) {
    this.pin = options.pin;
  }

  read(): number {
    const phase = ((Time.ticks >>> 0) / 10 + this.pin * 409) % 8190;
    return Math.round(phase < 4095 ? phase : 8190 - phase);
  }

  close(): void { /* nothing to release */ }

  get format(): 'number' { return 'number'; }
  set format(_value: 'number') { /* only number */ }
}
Object.freeze(Analog.prototype);
