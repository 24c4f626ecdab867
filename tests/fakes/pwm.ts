// Fake of ECMA-419 embedded:io/pwm as the Moddable SDK makes it on an ESP32 (modules/io/pwm/esp32/_pwm.c):
// - LEDC channels 4..7 only (MODDEF_PWM_LEDC_CHANNEL_MAP 0xF0): a fifth output is Error "no ledc channel";
// - resolution 10 bits and 1024 Hz unless given; below the SDK's measured minimum frequency for the
//   resolution (65, 33, 17, 9, 5, 3, 2 Hz at 8..14 bits) RangeError; a timer the 80 MHz clock cannot
//   make (hz * 2^resolution above it) Error "configure ledc timer failed";
// - channels of one frequency and resolution share one of four timers;
// - close() stops the channel but detaches its pin only when no other channel uses the timer: the pin
//   stays routed to the channel and copies whatever opens on it next;
// - write() outside 0..2^resolution-1 is RangeError.

import { check, pins, type LedcTimer } from './io';

const MIN_HZ = [65, 33, 17, 9, 5, 3, 2];
const CLOCK_HZ = 80000000;

function show(channel: number, out: { hz: number; value: number; resolution: number }): void {
  pins.ledc.routed.forEach((c, pin) => { if (c === channel) pins.pwm.set(pin, { ...out }); });
}

export default class PWM {
  readonly resolution: number;
  readonly hz: number;
  private readonly pin: number;
  private channel = -1;
  private timer: LedcTimer | null = null;

  constructor(options: { pin: number; hz?: number; resolution?: number }) {
    const hz = options.hz ?? 1024;
    const resolution = options.resolution ?? 10;
    if (pins.used.has(options.pin)) throw new Error('in use');
    check(options.pin);
    if (!(hz > 0)) throw new RangeError('invalid hz');
    if (resolution <= 0 || resolution >= 20) throw new RangeError('invalid resolution');
    if (resolution < 8 || resolution > 14) throw new RangeError('resolution outside the SDK\'s measured table');
    if (hz < MIN_HZ[resolution - 8]) throw new RangeError('invalid combination of hz and resolution');
    let channel = 0;
    while (channel < 8 && !(pins.ledc.free & (1 << channel))) channel++;
    if (channel === 8) throw new Error('no ledc channel');
    const timers = pins.ledc.timers;
    let timer = timers.find((t) => t.use > 0 && t.hz === hz && t.resolution === resolution);
    if (!timer) {
      timer = timers.find((t) => t.use === 0);
      if (!timer) throw new RangeError('no timer');
      if (hz * 2 ** resolution > CLOCK_HZ) throw new Error('configure ledc timer failed');
      timer.hz = hz;
      timer.resolution = resolution;
    }
    timer.use++;
    this.timer = timer;
    this.channel = channel;
    this.pin = options.pin;
    this.hz = hz;
    this.resolution = resolution;
    pins.ledc.free &= ~(1 << channel);
    pins.used.add(this.pin);
    pins.ledc.routed.set(this.pin, channel);
    show(channel, { hz, value: 0, resolution });
  }

  write(value: number): void {
    if (this.channel < 0) throw new Error('closed');
    check(this.pin);
    if (value < 0 || value > 2 ** this.resolution - 1) throw new RangeError('invalid value');
    show(this.channel, { hz: this.hz, value, resolution: this.resolution });
  }

  close(): void {
    if (this.channel < 0) return;
    const timer = this.timer!;
    show(this.channel, { hz: this.hz, value: 0, resolution: this.resolution }); // ledc_stop: idle low
    pins.ledc.free |= 1 << this.channel;
    timer.use--;
    if (timer.use === 0) {
      pins.ledc.routed.delete(this.pin); // gpio_set_direction: the pin leaves the LEDC
      pins.pwm.delete(this.pin);
    }
    pins.used.delete(this.pin);
    this.channel = -1;
  }
}
