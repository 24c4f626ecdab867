// Fakes of the ESP32's firmware-update modules, failing where the SDK's do (read in the SDK, 8.2.3):
// - embedded:storage/flash (modules/io/flash/esp32/flash-esp32.c): open({path: 'nextota'}) throws "can't find
//   partition" when the partition table has no OTA slot (:114-120); mode 'r' is read-only (:124-127).
// - embedded:update (modules/io/update/esp32/update-esp32.c): open throws "read-only partition" (:51-52) and
//   "begin failed" (:81-83), which esp_ota_begin answers while the running app is on trial (ESP-IDF v6.0
//   components/app_update/esp_ota_ops.c:163-170, ESP_ERR_OTA_ROLLBACK_INVALID_STATE); write throws
//   "already complete" after complete (:97-98) and "write failed" when esp_ota_write fails (:113-114), as
//   it does when the first byte it is given is not the image magic 0xE9 (esp_ota_ops.c:330-335); complete throws "end failed" when esp_ota_end refuses the image (:124-127;
//   the handle is gone after it, :125) and "can't change boot partition" (:129-131); close() aborts (:19-25).
//   esp_ota_end validates the image (its segments and hash); here its first byte must be 0xE9 and it
//   must be `ota.imageLength` bytes long, the length ESP-IDF's walk of the test's image finds.
// - crypt's Digest: node:crypto. ota-state: the project's native module (hal/device/firmware/ota-state.c).

import { createHash } from 'node:crypto';

export const ota = {
  /** The partition table has a second OTA partition. */
  hasNext: true,
  size: 0x1e0000,
  /** Bytes written into the next partition so far, and whether it is the boot partition now. */
  written: [] as number[],
  bootNext: false,
  open: 0,
  failBegin: false,
  /** esp_ota_write fails once this many bytes have been written (-1: never). */
  failWriteAt: -1,
  failBoot: false,
  /** The length a whole image has (esp_ota_end's check); -1: any. */
  imageLength: -1,
  /** ota-state */
  running: 'ota_0',
  trial: false,
  confirms: 0,
  other: undefined as string | undefined,
  /** How often the firmware asked the chip for the rollback version (the chip validates a whole image). */
  rollbackAsks: 0,
  chip: 0,
  reset(): void {
    Object.assign(ota, { hasNext: true, written: [], bootNext: false, open: 0, failBegin: false, failWriteAt: -1, failBoot: false, imageLength: -1,
      running: 'ota_0', trial: false, confirms: 0, other: undefined, rollbackAsks: 0, chip: 0 });
  },
};

export interface Flash { close(): void; status(): { size: number; blockLength: number; blocks: number }; readOnly: boolean }

export const Flash = {
  open(options: { path: string; mode?: string }): Flash {
    if (options.path !== 'nextota' || !ota.hasNext) throw new Error("can't find partition");
    const readOnly = options.mode === 'r';
    return { readOnly, close: () => undefined, status: () => ({ size: ota.size, blockLength: 4096, blocks: ota.size / 4096 }) };
  },
};

class Updater {
  private live = true;
  constructor() { ota.open++; ota.written = []; }

  write(bytes: Uint8Array): void {
    if (!this.live) throw new Error('already complete');
    if (!ota.written.length && bytes.length && bytes[0] !== 0xe9) throw new Error('write failed');
    for (const b of bytes) {
      if (ota.failWriteAt >= 0 && ota.written.length >= ota.failWriteAt) throw new Error('write failed');
      ota.written.push(b);
    }
  }

  complete(): void {
    if (!this.live) throw new Error('already complete');
    this.live = false; // esp_ota_end frees the handle whatever it answers
    ota.open--;
    const w = ota.written;
    if (w[0] !== 0xe9 || (ota.imageLength >= 0 && w.length !== ota.imageLength)) throw new Error('end failed');
    if (ota.failBoot) throw new Error("can't change boot partition");
    ota.bootNext = true;
  }

  close(): void {
    if (this.live) ota.open--;
    this.live = false; // esp_ota_abort
  }
}

export const Update = {
  open(options: { partition: Flash }): Updater {
    if (!options.partition) throw new Error('no partition');
    if (options.partition.readOnly) throw new Error('read-only partition');
    if (ota.failBegin || ota.trial) throw new Error('begin failed');
    return new Updater();
  },
};

export class Digest {
  private readonly h = createHash('sha256');
  constructor(type: string) { if (type !== 'SHA256') throw new Error('unsupported'); }
  /** A string is written as its bytes (UTF-8 in XS), a buffer or view as its bytes (modules/crypt/digest/modCrypt.c:184-189). */
  write(data: string | ArrayBuffer | Uint8Array): void { this.h.update(data instanceof ArrayBuffer ? new Uint8Array(data) : data); }
  close(): ArrayBuffer { const d = this.h.digest(); return d.buffer.slice(d.byteOffset, d.byteOffset + d.byteLength); }
}

export const OtaState = {
  running: () => ota.running,
  onTrial: () => ota.trial,
  confirm: () => { ota.trial = false; ota.confirms++; },
  rollbackVersion: () => { ota.rollbackAsks++; return ota.other; },
  chipId: () => ota.chip,
};
