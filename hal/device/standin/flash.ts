// Desktop-host stand-in for embedded:storage/flash, in the budget builds (budget/module-features.json):
// the one partition the ESP32 firmware HAL opens, the second OTA slot of the project's partition table
// (esp32/partitions.csv: 0x1E0000 bytes), as modules/io/flash/esp32/flash-esp32.c opens it: an unknown
// path throws "can't find partition", mode 'r' is read-only. Its bytes are native/update-lin's file.

const NEXT_OTA_SIZE = 0x1e0000;
const BLOCK = 4096;

export class Flash {
  constructor(readonly readOnly: boolean) {}

  close(): void { /* nothing held */ }

  status(): { size: number; blockLength: number; blocks: number } {
    return { size: NEXT_OTA_SIZE, blockLength: BLOCK, blocks: NEXT_OTA_SIZE / BLOCK };
  }
}
Object.freeze(Flash.prototype);

export default Object.freeze({
  open(options: { path: string; mode?: 'r' | 'r+' }): Flash {
    if (options.path !== 'nextota') throw new Error("can't find partition");
    return new Flash(options.mode === 'r');
  },
});
