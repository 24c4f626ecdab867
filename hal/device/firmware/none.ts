// The FirmwareHal of a board whose SDK cannot write a new image (the Pico W, the desktop host):
// GET …/firmware tells what runs; PUT answers 501 saying why (docs/firmware.md).

import { ApiError, aErrUnimplemented } from '../../kit/errors';
import type { FirmwareHal, FirmwareOptions, FirmwareStatus, FirmwareWriter, Sha256 } from '../../types';

export const UNSUPPORTED = 'this board cannot update its firmware over HTTP: the Moddable SDK writes a new image ' +
  '(embedded:update) on the ESP32 only, and this board has no second firmware slot; flash it over USB (docs/module.md)';

export function createFirmware(options: FirmwareOptions): FirmwareHal {
  const status: FirmwareStatus = Object.freeze({ version: options.version, build: options.build, slot: 'flash', confirmed: true, rollback: -1 });
  return Object.freeze({
    capacity: 0,
    status: () => status,
    begin: (): FirmwareWriter => { throw new ApiError(aErrUnimplemented, UNSUPPORTED); },
    sha256: (): Sha256 => { throw new ApiError(aErrUnimplemented, UNSUPPORTED); },
  });
}
