// The simulator's firmware image (docs/firmware.md §The simulator's image): a 64-byte header, then the
// payload. `make firmware-image` writes one (tools/firmware-image.mjs); the simulated module checks the
// header as the image arrives. All numbers little-endian.
//    0  4  magic "BSFW"
//    4  1  header format, 1
//    5  1  flags: bit 0 = the firmware never starts (a test of a rollout: the module rolls back)
//    6  2  0
//    8 16  platform, ASCII, NUL-padded: "sim"
//   24  4  model (system/0/model) it is for
//   28  4  version, packed as system/0/version (major << 28 | minor << 24 | patch)
//   32  4  build (system/0/build)
//   36  4  payload length, bytes
//   40 24  0
//   64     payload

export const IMAGE_MAGIC = 'BSFW';
export const HEADER_BYTES = 64;
export const HEADER_FORMAT = 1;
export const FLAG_NEVER_STARTS = 1;
export const SIM_PLATFORM = 'sim';

export interface ImageHeader {
  platform: string;
  model: number;
  version: number;
  build: number;
  payloadLength: number;
  flags: number;
}

/** The header of an image, or why the bytes are not one (they are HEADER_BYTES long). */
export function readHeader(b: Uint8Array): ImageHeader | string {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (String.fromCharCode(b[0], b[1], b[2], b[3]) !== IMAGE_MAGIC) return 'it is not a simulator firmware image (no BSFW magic): make one with `make firmware-image`';
  if (b[4] !== HEADER_FORMAT) return `its header format ${b[4]} is not ${HEADER_FORMAT}`;
  let platform = '';
  for (let i = 8; i < 24 && b[i] !== 0; i++) platform += String.fromCharCode(b[i]);
  return { platform, flags: b[5], model: dv.getUint32(24, true), version: dv.getUint32(28, true), build: dv.getUint32(32, true), payloadLength: dv.getUint32(36, true) };
}

/** A whole image: header and payload. */
export function makeImage(h: ImageHeader, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(HEADER_BYTES + payload.length);
  const dv = new DataView(out.buffer);
  for (let i = 0; i < 4; i++) out[i] = IMAGE_MAGIC.charCodeAt(i);
  out[4] = HEADER_FORMAT;
  out[5] = h.flags;
  for (let i = 0; i < h.platform.length && i < 16; i++) out[8 + i] = h.platform.charCodeAt(i);
  dv.setUint32(24, h.model, true);
  dv.setUint32(28, h.version, true);
  dv.setUint32(32, h.build, true);
  dv.setUint32(36, payload.length, true);
  out.set(payload, HEADER_BYTES);
  return out;
}
