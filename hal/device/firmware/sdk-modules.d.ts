// The SDK modules the ESP32 firmware HAL uses that @moddable/typings (the npm package) does not declare,
// as the SDK's own typings declare them (typings/embedded/update.d.ts, typings/crypt.d.ts,
// modules/io/flash/esp32/flash-esp32.js). The project's ota-state module has its types beside it
// (esp32/ota-state.d.ts, mapped in tsconfig.moddable.json).
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
    write(message: string | ArrayBuffer | ArrayBufferView): void; // a string as its UTF-8 bytes (modCrypt.c:184-186)
    close(): ArrayBuffer;
  }
}
