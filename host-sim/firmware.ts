// The simulated module's FirmwareHal (hal/types.ts): an image in the format of firmware-image.ts is
// checked as it arrives (the header: platform and model; then its length), hashed with node:crypto,
// and "written" into the other slot (only its header is kept: the payload has nowhere to run). After
// the 202 the module restarts into it (hal/sim/firmware-slots.ts).

import { ApiError, aErrParam } from '../hal/kit/errors';
import type { FirmwareHal, FirmwareWriter } from '../hal/types';
import { nodeSha256 } from './sha256';
import type { SimModule } from '../hal/sim/index';
import { FLAG_NEVER_STARTS, HEADER_BYTES, readHeader, SIM_PLATFORM, type ImageHeader } from './firmware-image';

/** The simulated slot: the largest image a module takes. */
export const SIM_SLOT_BYTES = 4 * 1024 * 1024;

class SimWriter implements FirmwareWriter {
  private readonly head = new Uint8Array(HEADER_BYTES);
  private received = 0;
  private header: ImageHeader | null = null;

  constructor(private readonly module: SimModule) {}

  write(bytes: Uint8Array): void {
    const at = this.received;
    this.received += bytes.length;
    if (at < HEADER_BYTES) {
      this.head.set(bytes.subarray(0, HEADER_BYTES - at), at);
      if (this.received >= HEADER_BYTES) this.header = this.check(readHeader(this.head));
    }
    const h = this.header;
    if (h && this.received > HEADER_BYTES + h.payloadLength) {
      throw new ApiError(aErrParam, `the image is longer than its header says (${HEADER_BYTES + h.payloadLength} bytes)`);
    }
  }

  /** The header read: an image for this module, or a refusal naming what it is for. */
  private check(h: ImageHeader | string): ImageHeader {
    if (typeof h === 'string') throw new ApiError(aErrParam, 'the image is refused: ' + h);
    if (h.platform !== SIM_PLATFORM) {
      throw new ApiError(aErrParam, `the image is for platform '${h.platform}'; this module is a simulator ('${SIM_PLATFORM}')`);
    }
    const model = this.module.profile.model;
    if (h.model !== model) {
      throw new ApiError(aErrParam, `the image is for model ${h.model}; this module is model ${model} (${this.module.profile.name})`);
    }
    return h;
  }

  complete(): number {
    const h = this.header;
    const whole = h ? HEADER_BYTES + h.payloadLength : HEADER_BYTES;
    if (!h || this.received < whole) {
      throw new ApiError(aErrParam, `the image is cut short: ${this.received} bytes came, its header says ${h ? whole : 'at least ' + HEADER_BYTES}`);
    }
    return h.version;
  }

  abort(): void {
    this.header = null;
  }

  restart(): void {
    const h = this.header;
    if (h) this.module.slots.restartInto({ version: h.version, build: h.build }, (h.flags & FLAG_NEVER_STARTS) !== 0);
  }
}

export function simFirmware(module: SimModule): FirmwareHal {
  return {
    capacity: SIM_SLOT_BYTES,
    status: () => module.slots.status(),
    begin: () => new SimWriter(module),
    served: () => module.slots.served(),
    sha256: nodeSha256,
  };
}
