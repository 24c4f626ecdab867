#!/usr/bin/env node
// An ESP32 app image laid out as ESP-IDF lays one out (components/bootloader_support/include/
// esp_app_format.h): esp_image_header_t, one segment that starts with esp_app_desc_t (version, project
// "xs_esp32"), the XOR checksum in the last byte of its 16-byte block, and the SHA-256 of all before it.
// The ESP32 firmware HAL takes it, and so do the budget builds' stand-in of embedded:update
// (native/update-lin); its payload is filler. Prints the Content-Digest to send with it.
//   node tools/esp32-app-image.mjs --version 0.2.0 [--size BYTES] [--chip 0] [--project xs_esp32] --out FILE

import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

function fail(message) {
  console.error(`error: ${message}`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({ options: { version: { type: 'string' }, size: { type: 'string', default: '1048576' },
    chip: { type: 'string', default: '0' }, project: { type: 'string', default: 'xs_esp32' }, out: { type: 'string' } } }));
} catch (e) {
  fail(e.message);
}
if (!/^\d+\.\d+\.\d+$/.test(values.version ?? '') || values.version.length > 31) fail('--version MAJOR.MINOR.PATCH is required');
if (!values.out) fail('--out FILE is required');
const size = Number(values.size), chip = Number(values.chip);
if (!Number.isInteger(size) || size < 512 || size > 0x1e0000) fail('--size must be 512..1966080 bytes (an OTA slot of esp32/partitions.csv)');
if (!Number.isInteger(chip) || chip < 0 || chip > 0xffff) fail('--chip is an esp_chip_id_t (0 for the ESP32)');
if (values.project.length > 31) fail('--project is at most 31 characters');

const HEADER = 24, SEGMENT_HEADER = 8, SHA = 32;
// The segment's length: a multiple of 4 (esp_image_format.c refuses others), so that the whole comes to about --size.
const segment = (size - HEADER - SEGMENT_HEADER - 16 - SHA) & ~3;
const checksumAt = (HEADER + SEGMENT_HEADER + segment) | 15;
const image = new Uint8Array(checksumAt + 1 + SHA);
const view = new DataView(image.buffer);
image[0] = 0xe9; // magic
image[1] = 1; // segment_count
image[2] = 2; // spi_mode DIO
image[3] = 0x20; // 4 MB flash, 40 MHz
view.setUint32(4, 0x40080400, true); // entry_addr
image[8] = 0xee; // wp_pin: none
view.setUint16(12, chip, true);
view.setUint16(17, 0xffff, true); // max_chip_rev_full: any
image[23] = 1; // hash_appended
view.setUint32(24, 0x3f400020, true); // load_addr: DROM, where the app descriptor lives
view.setUint32(28, segment, true); // data_len
const app = HEADER + SEGMENT_HEADER; // esp_app_desc_t
view.setUint32(app, 0xabcd5432, true);
const text = (at, s) => { for (let i = 0; i < s.length; i++) image[at + i] = s.charCodeAt(i); };
text(app + 16, values.version);
text(app + 48, values.project);
text(app + 80, '00:00:00');
text(app + 96, 'Jan  1 2026');
text(app + 112, 'v5.5');
for (let i = app + 256; i < app + segment; i++) image[i] = (i * 131 + (i >> 8)) & 0xff;
let checksum = 0xef;
for (let i = app; i < app + segment; i++) checksum ^= image[i];
image[checksumAt] = checksum;
image.set(createHash('sha256').update(image.subarray(0, checksumAt + 1)).digest(), checksumAt + 1);
writeFileSync(values.out, image);
console.log(`${values.out}: ${image.length} bytes, ESP32 app ${values.project} ${values.version} for chip ${chip}`);
console.log(`Content-Digest: sha-256=:${createHash('sha256').update(image).digest('base64')}:`);
