// The SDK modules the ESP32 firmware HAL uses that @moddable/typings (the npm package) does not declare,
// as the SDK's own typings declare them (typings/embedded/update.d.ts, typings/crypt.d.ts,
// modules/io/flash/esp32/flash-esp32.js), and the project's native ota-state module (esp32/ota-state.c).
// Read by make check-moddable only; under Node, tsconfig.json maps these to tests/fakes/.

declare module 'embedded:storage/flash' {
  export interface Flash {
    close(): void;
    status(): { size: number; blockLength: number; blocks: number };
  }
  const Flash: { open(options: { path: string; mode?: 'r' | 'r+' }): Flash };
  export default Flash;
}

declare module 'embedded:update' {
  import type { Flash } from 'embedded:storage/flash';
  export interface Updater {
    close(): void;
    complete(): void;
    write(bytes: ArrayBufferLike | ArrayBufferView): void;
  }
  const Update: { open(options: { partition: Flash; mode?: 'a' | 'w'; byteLength?: number }): Updater };
  export default Update;
}

declare module 'crypt' {
  export class Digest {
    constructor(type: 'SHA256');
    write(message: string | ArrayBuffer): void;
    close(): ArrayBuffer;
  }
}

declare module 'ota-state' {
  const OtaState: {
    /** The running app partition's label (ota_0, ota_1, factory). */
    running(): string;
    /** The running app is on trial (ESP_OTA_IMG_PENDING_VERIFY). */
    onTrial(): boolean;
    /** esp_ota_mark_app_valid_cancel_rollback(). */
    confirm(): void;
    /** The app version in the other OTA partition when it holds a valid app (a rollback's target). */
    rollbackVersion(): string | undefined;
    /** CONFIG_IDF_FIRMWARE_CHIP_ID of this build (esp_chip_id_t). */
    chipId(): number;
  };
  export default OtaState;
}
