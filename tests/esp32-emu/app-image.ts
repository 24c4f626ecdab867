// An ESP32 app image (xs_esp32.bin) with another version in its descriptor, still valid for ESP-IDF's
// bootloader and esp_ota_end: the image header (24 bytes) and the first segment's header (8) come
// first, then esp_app_desc_t, whose `version` (32 bytes) starts 16 bytes in; after the segments, the
// checksum byte (0xEF xor every segment byte) ends a 16-byte boundary, and with hash_appended (header
// byte 23) the SHA-256 of everything before follows (ESP-IDF components/bootloader_support
// esp_image_format.c; esptool's elf2image writes the same).
import { createHash } from 'node:crypto';

const DESC = 24 + 8;
const VERSION = DESC + 16;

export function withVersion(image: Buffer, version: string): Buffer {
  const out = Buffer.from(image);
  if (out.readUInt32LE(DESC) !== 0xabcd5432) throw new Error('no esp_app_desc_t at the start of the first segment');
  const hashed = out[23] === 1;
  const checksumAt = out.length - (hashed ? 32 : 0) - 1;
  const field = Buffer.alloc(32);
  field.write(version, 'latin1');
  let checksum = out[checksumAt];
  for (let k = 0; k < 32; k++) checksum ^= out[VERSION + k] ^ field[k];
  field.copy(out, VERSION);
  out[checksumAt] = checksum;
  if (hashed) createHash('sha256').update(out.subarray(0, out.length - 32)).digest().copy(out, out.length - 32);
  return out;
}

/** The version in an image's descriptor. */
export function versionOf(image: Buffer): string {
  return image.subarray(VERSION, VERSION + 32).toString('latin1').replace(/\0.*$/s, '');
}
