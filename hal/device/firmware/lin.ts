// The desktop host's FirmwareHal. mcsim cannot restart into a new image, so the lin build answers 501
// (none.ts). The budget builds stand for the ESP32's heap (budget/README.md), so they carry the ESP32's
// firmware HAL on desktop stand-ins of its SDK modules (config.firmware.update "stand-in",
// budget/module-features.json): an update streams, is checked and answered 202 as on the chip, then the
// module keeps running the version it has (the image is left in a file: native/update-lin/update-lin.c).

import config from 'mc/config';
import { createFirmware as esp32Firmware } from './esp32';
import { createFirmware as noFirmware } from './none';
import type { FirmwareHal, FirmwareOptions } from '../../types';

export function createFirmware(options: FirmwareOptions): FirmwareHal {
  const update = ((config.firmware ?? {}) as { update?: string }).update;
  if (update !== 'stand-in') return noFirmware(options);
  return esp32Firmware({ version: options.version, build: options.build,
    restart: () => trace('firmware: the image is whole; the desktop host keeps running its version (it cannot restart into another)\n') });
}
