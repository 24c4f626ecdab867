// A general I/O module, modelled on Acroname's USBStem (model 4): 15 digital pins (the first 8 also
// drive RC servos), 4 analog channels, one UART, two I2C buses (present, 501 like every i2c operation per
// docs/api.md), and internal, RAM and SD-card stores. No USB ports, rails or temperature sensor.
// Values are modelled, not copied from a datasheet.

import { BARE_MODULE, INTERNAL_STORE, type SimProfile } from '../profile';

export const USBSTEM: SimProfile = {
  ...BARE_MODULE,
  name: 'usbstem',
  model: 4,
  counts: {
    system: 1, digital: 15, analog: 4, servo: 8, uart: 1, i2c: 2, store: 3, pointer: 4, timer: 8, userconfig: 1,
  },
  unsupported: { i2c: 'none' },
  moduleBaseAddress: 2,
  stores: [
    INTERNAL_STORE,
    { name: 'RAM', slots: [16384], persistent: false },
    // An SD card keeps its contents through resets and power cycles.
    { name: 'SD', slots: [4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096], persistent: true },
  ],
  digitalInputs: 0x0a55,
  uartProtocols: 0b1000101, // 0 undefined, 2 BrainStem, 6 loopback
};
