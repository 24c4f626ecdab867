// analog: ADC inputs (ECMA-419 Analog). value is the raw reading scaled to 16 bits (BrainStem analog
// values are u16 whatever the converter's resolution); voltage is in µV from the profile's full scale.
// The ESP32 has no DAC on most variants, so outputs (configuration 1, enable, writing value) are 409/501.

import Analog from 'embedded:io/analog';
import { ApiError, aErrIO, aErrMode } from '../../src/api/errors';
import type { EntityHal, EntityOps } from '../types';
import { makeEntity } from './entity';
import { asNumber } from './values';

type Op = EntityOps['analog'];

export function createAnalog(pins: readonly number[], fullScaleMicrovolts: number): EntityHal<Op> {
  const io: (Analog | null)[] = pins.map(() => null);
  const sample = (i: number): number => {
    try {
      let a = io[i];
      if (!a) a = io[i] = new Analog({ pin: pins[i] });
      // Scale to 0..65535 so the value does not depend on the converter's bits.
      return Math.round((a.read() * 65535) / ((1 << a.resolution) - 1));
    } catch (e) {
      throw new ApiError(aErrIO, `analog ${i} (pin ${pins[i]}): ${(e as Error).message}`);
    }
  };
  return makeEntity('analog', {
    count: pins.length,
    get: {
      value: (i) => sample(i),
      voltage: (i) => Math.round((sample(i) * fullScaleMicrovolts) / 65535),
      configuration: () => 0,
      range: () => 0,
    },
    set: {
      configuration: (i, _p, v) => {
        if (asNumber(v, 'configuration') !== 0) throw new ApiError(aErrMode, `analog ${i} is an input only (configuration 0)`);
      },
      range: (i, _p, v) => {
        if (asNumber(v, 'range') !== 0) throw new ApiError(aErrMode, `analog ${i} has one input range (0)`);
      },
    },
  });
}
