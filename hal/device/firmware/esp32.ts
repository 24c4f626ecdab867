// The ESP32's FirmwareHal (docs/firmware.md): an image goes into the next OTA partition through the
// SDK's ECMA-419 update module (embedded:update, modules/io/update/esp32/update-esp32.c) as it arrives,
// its SHA-256 through the SDK's crypt Digest; its ESP-IDF app descriptor is judged once its first
// DESCRIPTOR_END bytes have come (app-image.ts). ESP-IDF's app rollback (the project's sdkconfig) boots
// a new image on trial; it confirms itself once it has answered a request (served()), through the
// project's small native module ota-state (no JavaScript in the SDK marks an app valid). An update is
// served too: a firmware still on trial confirms itself before it opens the next partition, since
// esp_ota_begin refuses while the running app is on trial (ESP-IDF v6.0
// components/app_update/esp_ota_ops.c:163-170). Nothing reaches esp_ota_write before the descriptor
// is judged: its first write checks the image's magic byte (esp_ota_ops.c:330-335) and fails as a
// flash write would, for a file that is no app image at all.

import Flash, { type Flash as Partition } from 'embedded:storage/flash';
import Update from 'embedded:update';
import { deviceSha256 } from '../sha256';
import OtaState from 'ota-state';
import { ApiError, aErrIO, aErrParam, aErrUnimplemented } from '../../kit/errors';
import { checkAppImage, DESCRIPTOR_END } from './app-image';
import type { FirmwareHal, FirmwareOptions, FirmwareStatus, FirmwareWriter, Sha256 } from '../../types';

/** What a native failure says (the SDK throws Errors with short messages: "write failed"). */
function why(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The next OTA partition, open for writing; 501 when the partition table has none. */
function nextPartition(): Partition {
  try {
    return Flash.open({ path: 'nextota', mode: 'r+' });
  } catch (e) {
    throw new ApiError(aErrUnimplemented, `this build has no second OTA partition (${why(e)}): flash it once over USB with the project's partition table (docs/firmware.md)`);
  }
}

class Esp32Writer implements FirmwareWriter {
  private readonly flash: Partition;
  private updater: ReturnType<typeof Update.open> | null;
  /** The image's first bytes until its descriptor has been judged, then null. */
  private head: Uint8Array | null = new Uint8Array(DESCRIPTOR_END);
  private received = 0;
  private version = -1;

  constructor(private readonly firmware: Esp32Firmware) {
    this.flash = nextPartition();
    try {
      this.updater = Update.open({ partition: this.flash });
    } catch (e) {
      this.flash.close();
      throw new ApiError(aErrIO, `cannot start writing the next OTA partition: ${why(e)}`);
    }
  }

  write(bytes: Uint8Array): void {
    const head = this.head;
    if (head) {
      const take = bytes.length < DESCRIPTOR_END - this.received ? bytes.length : DESCRIPTOR_END - this.received;
      head.set(bytes.subarray(0, take), this.received);
      this.received += take;
      if (this.received < DESCRIPTOR_END) return; // held until the descriptor can be judged
      this.head = null;
      this.version = checkAppImage(head, this.firmware.chipId);
      this.flashWrite(head, 0);
      bytes = bytes.subarray(take);
    }
    if (!bytes.length) return;
    this.received += bytes.length;
    this.flashWrite(bytes, this.received - bytes.length);
  }

  private flashWrite(bytes: Uint8Array, at: number): void {
    try {
      this.updater!.write(bytes);
    } catch (e) {
      throw new ApiError(aErrIO, `writing the image to flash failed at byte ${at}: ${why(e)}`);
    }
  }

  complete(): number {
    if (this.version < 0) throw new ApiError(aErrParam, `the image is cut short: ${this.received} bytes came, not even its app descriptor`);
    const updater = this.updater!;
    this.updater = null;
    try {
      updater.complete();
    } catch (e) {
      const m = why(e);
      throw m === 'end failed' ? new ApiError(aErrParam, 'the image is cut short or damaged: ESP-IDF\'s check of the written image failed (esp_ota_end)')
        : new ApiError(aErrIO, `the image is written but cannot be made the boot partition: ${m}`);
    } finally {
      updater.close();
      this.flash.close();
    }
    return this.version;
  }

  abort(): void {
    const updater = this.updater;
    this.updater = null;
    if (updater) updater.close(); // esp_ota_abort: the running app stays the boot one
    this.flash.close();
  }

  restart(): void {
    this.firmware.restart();
  }
}
Object.freeze(Esp32Writer.prototype);

export class Esp32Firmware implements FirmwareHal {
  readonly chipId: number;
  private confirmed: boolean;
  private rollback: number | undefined = undefined;

  constructor(private readonly options: FirmwareOptions) {
    this.chipId = OtaState.chipId();
    this.confirmed = !OtaState.onTrial();
  }

  get capacity(): number {
    let flash: Partition | null = null;
    try {
      flash = Flash.open({ path: 'nextota', mode: 'r' });
      return flash.status().size;
    } catch {
      return 0; // no OTA partition: begin() answers 501 saying so
    } finally {
      if (flash) flash.close();
    }
  }

  status(): FirmwareStatus {
    return {
      version: this.options.version, build: this.options.build, slot: OtaState.running(), confirmed: this.confirmed,
      rollback: this.rollbackVersion(),
    };
  }

  /**
   * The packed version a rollback would boot, or -1. Asked of the chip once, then again only after an
   * upload began (it writes the other slot): the chip validates the whole image to answer.
   */
  private rollbackVersion(): number {
    if (this.rollback === undefined) {
      const other = OtaState.rollbackVersion();
      const n = other ? other.split('.') : [];
      this.rollback = n.length === 3 ? ((Number(n[0]) << 28) | (Number(n[1]) << 24) | Number(n[2])) >>> 0 : -1;
    }
    return this.rollback;
  }

  begin(_length: number): FirmwareWriter {
    this.rollback = undefined; // the other slot is about to be written
    try {
      this.served(); // this request is the firmware serving: esp_ota_begin needs it confirmed
    } catch (e) {
      throw new ApiError(aErrIO, `the running firmware is on trial and could not confirm itself: ${why(e)}`);
    }
    return new Esp32Writer(this);
  }

  sha256(): Sha256 {
    return deviceSha256();
  }

  /** A request has been answered: a firmware on trial confirms itself (ESP-IDF cancels the rollback). */
  served(): void {
    if (this.confirmed) return;
    OtaState.confirm();
    this.confirmed = true;
  }

  restart(): void {
    this.options.restart();
  }
}
Object.freeze(Esp32Firmware.prototype);

export function createFirmware(options: FirmwareOptions): FirmwareHal {
  return new Esp32Firmware(options);
}
