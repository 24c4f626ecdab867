// A programmable power module, modelled on Acroname's MTM-PM-1 (model 14): one adjustable rail (up to
// 5 V, 1 A), two digital pins, an I2C bus (present, 501 like every i2c operation per docs/api.md), a
// temperature sensor, stores, pointers and timers. The rail regulates voltage and limits current: the
// power and resistance setpoints and Kelvin sensing of an electronic load are unsupported (501).
// Values are modelled, not copied from a datasheet.

import { BARE_MODULE, INTERNAL_STORE, type SimProfile } from '../profile';

export const MTM_PM_1: SimProfile = {
  ...BARE_MODULE,
  name: 'mtm-pm-1',
  model: 14,
  counts: {
    system: 1, rail: 1, digital: 2, i2c: 1, temperature: 1, store: 2, pointer: 4, timer: 8, userconfig: 1,
  },
  unsupported: {
    rail: ['powersetpoint', 'resistancesetpoint', 'kelvinsensingenable', 'kelvinsensingstate'],
    i2c: 'none',
  },
  moduleBaseAddress: 4, // MTM modules: base 4 plus the offset the backplane slot straps
  // A 10 ohm load on the output at power-up: 0.5 A once enabled at the default 5 V.
  rails: [{ maxVoltage: 5_000_000, maxCurrent: 1_000_000, maxPower: 5_000, switchable: true, loadMilliohm: 10_000 }],
  stores: [
    INTERNAL_STORE,
    { name: 'RAM', slots: [4096], persistent: false },
  ],
  digitalInputs: 0b01,
};
