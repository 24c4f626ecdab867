// Fake of ECMA-419 embedded:io/analog: a 12-bit converter. A pin given in pins.millivolts reads as the
// ESP32 SDK scales it (modules/io/analog/esp32/_analog.c): the calibrated millivolts mapped back to
// 0..4095 over the attenuation's full scale (950, 1250, 1750, 2450 mV at 0, 2.5, 6, 12 dB; 12 dB unless
// `esp32.attenuation` says otherwise), clipped at 4095. Otherwise the raw value in pins.analog.

import { pins } from './io';

const FULL_SCALE_MV: Record<string, number> = { 0: 950, 2.5: 1250, 6: 1750, 12: 2450 };

export default class Analog {
  readonly resolution = 12;
  private readonly pin: number;
  private readonly vmax: number;
  constructor(options: { pin: number; esp32?: { attenuation?: number } }) {
    const atten = options.esp32?.attenuation ?? 12;
    const vmax = FULL_SCALE_MV[String(atten)];
    if (vmax === undefined) throw new RangeError('bad attenuation');
    this.pin = options.pin;
    this.vmax = vmax;
    pins.analogOpen.add(this.pin);
  }
  read(): number {
    const mv = pins.millivolts.get(this.pin);
    if (mv === undefined) return pins.analog.get(this.pin) ?? 0;
    return Math.min(4095, Math.floor((Math.min(mv, this.vmax) * 4095) / this.vmax));
  }
  close(): void {
    pins.analogOpen.delete(this.pin);
  }
}
