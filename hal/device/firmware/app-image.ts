// What an ESP32 app image says of itself before it is written (ESP-IDF, components/bootloader_support/
// include/esp_app_format.h and esp_app_desc.h): esp_image_header_t (24 bytes: magic 0xE9 at 0,
// chip_id u16 at 12), the first segment's header (8 bytes), then esp_app_desc_t at offset 32
// (magic_word 0xABCD5432, secure_version, reserv1[2], version[32] at 48, project_name[32] at 80).
// Device-side code: bytes in, a refusal or the packed version out.

import { ApiError, aErrParam } from '../../kit/errors';
import { packVersion } from '../../kit/version';

/** The bytes an image must have come with before it is judged: up to the end of project_name. */
export const DESCRIPTOR_END = 112;
const IMAGE_MAGIC = 0xe9;
const APP_DESC_MAGIC = 0xabcd5432;
/** The ESP-IDF project every Moddable ESP32 build is (build/devices/esp32/xsProj-esp32/CMakeLists.txt). */
export const MODDABLE_PROJECT = 'xs_esp32';

/** esp_chip_id_t values (esp_app_format.h) by name, for messages. */
const CHIPS: readonly string[] = Object.freeze(['ESP32', '', 'ESP32-S2', '', '', 'ESP32-C3', '', '', '', 'ESP32-S3', '', '',
  'ESP32-C2', 'ESP32-C6', '', '', 'ESP32-H2', '', 'ESP32-P4']);

function chipName(id: number): string {
  return (id < CHIPS.length && CHIPS[id]) || 'chip ' + id;
}

/** A NUL-terminated field of at most `size` bytes as text (ASCII). */
function field(b: Uint8Array, at: number, size: number): string {
  let s = '';
  for (let i = at; i < at + size && b[i] !== 0; i++) s += String.fromCharCode(b[i]);
  return s;
}

/**
 * Judge the first DESCRIPTOR_END bytes of an image for a module whose chip is `chipId`: its packed
 * version (the app descriptor's `version`, `major.minor.patch`, set by the build's PROJECT_VER), or
 * throw 400 aErrParam naming what it is for.
 */
export function checkAppImage(b: Uint8Array, chipId: number): number {
  if (b[0] !== IMAGE_MAGIC) throw new ApiError(aErrParam, 'the image is not an ESP32 app image (no 0xE9 magic): send the app .bin of a build, not a merged flash image or another file');
  const chip = b[12] | (b[13] << 8);
  if (chip !== chipId) throw new ApiError(aErrParam, `the image is for the ${chipName(chip)}; this module is an ${chipName(chipId)}`);
  const magic = (b[32] | (b[33] << 8) | (b[34] << 16) | (b[35] << 24)) >>> 0;
  if (magic !== APP_DESC_MAGIC) throw new ApiError(aErrParam, 'the image has no ESP-IDF app descriptor (esp_app_desc_t) at offset 32');
  const project = field(b, 80, 32);
  if (project !== MODDABLE_PROJECT) throw new ApiError(aErrParam, `the image is the ESP-IDF app '${project}', not a Moddable build ('${MODDABLE_PROJECT}')`);
  const text = field(b, 48, 32);
  const parts = text.split('.');
  const n = parts.length === 3 ? [Number(parts[0]), Number(parts[1]), Number(parts[2])] : [];
  if (n.length !== 3 || !(n[0] >= 0 && n[0] <= 15 && n[1] >= 0 && n[1] <= 15 && n[2] >= 0 && n[2] <= 0xffffff) || parts[2] === '') {
    throw new ApiError(aErrParam, `the image's app version '${text}' is not major.minor.patch (its build sets it: docs/firmware.md)`);
  }
  return packVersion(n[0], n[1], n[2]);
}
