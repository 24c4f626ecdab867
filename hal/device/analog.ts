// analog: ADC inputs (ECMA-419 Analog). value is the raw reading scaled to 16 bits (BrainStem analog
// values are u16 whatever the converter's resolution); voltage is in µV from the profile's full scale.
// The ESP32 has no DAC on most variants: value and voltage are read-only (501 on PUT), configuration
// accepts input (0) only, range the one input range (0); enable and bulk capture are absent (501).

import Analog from 'embedded:io/analog';
import { ApiError, aErrIO } from '../kit/errors';
import { deepFreeze } from '../../util/freeze';
import type { EntityOps, ValueOf, ValuesOf } from '../types';
import { DeviceEntity } from './entity';
import { READ, type OpTable } from './op-table';
import type { Settings } from './settings';

type Op = EntityOps['analog'];

const OPS: OpTable<ValuesOf<'analog'>> = deepFreeze({
  value: { code: READ },
  voltage: { code: READ },
  configuration: { fixed: 0, limits: { values: [0] } },
  range: { fixed: 0, limits: { values: [0] } },
});

export class AnalogEntity extends DeviceEntity<ValuesOf<'analog'>> {
  private readonly pins: readonly number[];
  private readonly fullScale: number;
  /**
   * One input open at a time, reopened when another is read: the Pico's Analog selects its ADC channel
   * when it is made, not when it reads, so with several open every read would sample the last one made.
   */
  private io: Analog | null = null;
  private ioIndex = -1;
  /** The attenuation each input is opened with on ESP32, when the board names one (-1: the SDK's default). */
  private readonly attenuation: number;

  constructor(s: Settings, pins: readonly number[], fullScaleMicrovolts: number, attenuation = -1) {
    super('analog', OPS, pins.length, s, 'ain');
    this.pins = pins;
    this.fullScale = fullScaleMicrovolts;
    this.attenuation = attenuation;
  }

  protected override read(i: number, op: Op): ValueOf<'analog'> {
    const v = this.sample(i);
    return op === 'voltage' ? Math.round((v * this.fullScale) / 65535) : v;
  }

  private sample(i: number): number {
    try {
      let a = this.io;
      if (!a || this.ioIndex !== i) {
        this.io = null;
        if (a) (a as Analog & { close?(): void }).close?.(); // ECMA-419 io close (not in the typings)
        const options: { pin: number; esp32?: { attenuation: number } } = { pin: this.pins[i] };
        if (this.attenuation >= 0) options.esp32 = { attenuation: this.attenuation };
        a = this.io = new Analog(options);
        this.ioIndex = i;
      }
      // Scale to 0..65535 so the value does not depend on the converter's bits.
      return Math.round((a.read() * 65535) / ((1 << a.resolution) - 1));
    } catch (e) {
      throw new ApiError(aErrIO, `analog ${i} (pin ${this.pins[i]}): ${(e as Error).message}`);
    }
  }
}
Object.freeze(AnalogEntity.prototype);
