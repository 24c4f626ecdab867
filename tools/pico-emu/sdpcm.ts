// SDPCM framing as the cyw43-driver reads and writes it over F2 (lib/cyw43-driver/src/cyw43_ll.c):
// struct sdpcm_header_t (:626), the ioctl header (:719), the BDC header (:788) and
// the checks of sdpcm_process_rx_packet (:822-950). The chip side: frames it sends, frames it parses.

export const SDPCM_HEADER_LEN = 12;
export const IOCTL_HEADER_LEN = 16;
export const BDC_HEADER_LEN = 4;

// channel_and_flags & 0x0f (cyw43_ll.c:180-182)
export const CONTROL_CHANNEL = 0;
export const EVENT_CHANNEL = 1;
export const DATA_CHANNEL = 2;

// Events and data go with two bytes of padding after the SDPCM header, as the driver's own data
// frames do (cyw43_ll.c:707): cyw43_ll_parse_async_event moves the event to buf - 2 with 32-bit
// stores (:592-604), so the event must sit at 2 mod 4 in spid_buf, which a 14-byte header gives.
export const PADDED_HEADER_LEN = SDPCM_HEADER_LEN + 2;

export interface SdpcmFrame {
  sequence: number;
  channel: number;
  headerLength: number;
  body: Uint8Array; // everything after header_length, up to size
}

export interface IoctlRequest {
  cmd: number;
  outLen: number;
  flags: number; // id << 16 | iface << 12 | kind (SDPCM_GET 0, SDPCM_SET 2)
  payload: Uint8Array;
}

const u16 = (b: Uint8Array, o: number): number => b[o] | (b[o + 1] << 8);
export const le32 = (b: Uint8Array, o: number): number => (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;

export function putLe32(b: Uint8Array, o: number, v: number): void {
  b[o] = v & 0xff; b[o + 1] = (v >>> 8) & 0xff; b[o + 2] = (v >>> 16) & 0xff; b[o + 3] = (v >>> 24) & 0xff;
}

/** Parses a frame the host wrote to F2; undefined for what the chip would drop (bad size check). */
export function parseFrame(bytes: Uint8Array): SdpcmFrame | undefined {
  if (bytes.length < SDPCM_HEADER_LEN) return undefined;
  const size = u16(bytes, 0);
  if (size !== (~u16(bytes, 2) & 0xffff) || size < SDPCM_HEADER_LEN || size > bytes.length) return undefined;
  const headerLength = bytes[7];
  if (headerLength < SDPCM_HEADER_LEN || headerLength > size) return undefined;
  return { sequence: bytes[4], channel: bytes[5] & 0x0f, headerLength, body: bytes.subarray(headerLength, size) };
}

export function parseIoctl(body: Uint8Array): IoctlRequest | undefined {
  if (body.length < IOCTL_HEADER_LEN) return undefined;
  return { cmd: le32(body, 0), outLen: le32(body, 4) & 0xffff, flags: le32(body, 8), payload: body.subarray(IOCTL_HEADER_LEN) };
}

/** The Ethernet frame inside a data frame (after the BDC header and its data_offset words). */
export function dataPayload(body: Uint8Array): { itf: number; frame: Uint8Array } | undefined {
  if (body.length <= BDC_HEADER_LEN) return undefined;
  const start = BDC_HEADER_LEN + body[3] * 4;
  return { itf: body[2], frame: body.subarray(start) };
}

/** A frame from the chip: header with the bus data credit the host may send up to, then body. */
export function buildFrame(channel: number, sequence: number, credit: number, headerLength: number, body: Uint8Array): Uint8Array {
  const size = headerLength + body.length;
  const out = new Uint8Array(size);
  out[0] = size & 0xff; out[1] = size >> 8;
  out[2] = ~size & 0xff; out[3] = (~size >> 8) & 0xff;
  out[4] = sequence & 0xff;
  out[5] = channel;
  out[7] = headerLength;
  out[9] = credit & 0xff;
  out.set(body, headerLength);
  return out;
}

/** The bus data credit of a frame built by buildFrame, set again. */
export function setCredit(frame: Uint8Array, credit: number): void {
  frame[9] = credit & 0xff;
}

export function ioctlResponseBody(req: IoctlRequest, payload: Uint8Array, status = 0): Uint8Array {
  const body = new Uint8Array(IOCTL_HEADER_LEN + payload.length);
  putLe32(body, 0, req.cmd);
  putLe32(body, 4, payload.length);
  putLe32(body, 8, req.flags);
  putLe32(body, 12, status);
  body.set(payload, IOCTL_HEADER_LEN);
  return body;
}

/** BDC header (flags 0x20 as the driver writes, cyw43_ll.c:806) then the Ethernet frame. */
export function bdcBody(itf: number, frame: Uint8Array): Uint8Array {
  const body = new Uint8Array(BDC_HEADER_LEN + frame.length);
  body[0] = 0x20;
  body[2] = itf;
  body.set(frame, BDC_HEADER_LEN);
  return body;
}
