// Text <-> bytes for device-side code. XS offers TextEncoder/TextDecoder (xsnap, and Moddable's
// text/encoder + text/decoder modules) and the XS-only ArrayBuffer.fromString/String.fromArrayBuffer;
// Node offers TextEncoder/TextDecoder. The choice is made once, at module load.

interface Encoder { encode(text: string): Uint8Array }
interface Decoder { decode(bytes: Uint8Array): string }
declare const TextEncoder: { new(): Encoder } | undefined;
declare const TextDecoder: { new(label?: string, options?: { fatal?: boolean }): Decoder } | undefined;

type XsArrayBuffer = { fromString?(text: string): ArrayBuffer };
type XsString = { fromArrayBuffer?(buffer: ArrayBuffer): string };

const encoder: Encoder | null = typeof TextEncoder === 'function' ? new TextEncoder() : null;
const decoder: Decoder | null = typeof TextDecoder === 'function' ? new TextDecoder() : null;
const xsFromString = (ArrayBuffer as unknown as XsArrayBuffer).fromString;
const xsFromArrayBuffer = (String as unknown as XsString).fromArrayBuffer;

/** UTF-8 bytes of a string. */
export function utf8Encode(text: string): Uint8Array {
  if (encoder) return encoder.encode(text);
  if (xsFromString) return new Uint8Array(xsFromString(text));
  throw new Error('no UTF-8 encoder on this platform');
}

/** A string from UTF-8 bytes (invalid sequences become U+FFFD). */
export function utf8Decode(bytes: Uint8Array): string {
  if (decoder) return decoder.decode(bytes);
  if (xsFromArrayBuffer) return xsFromArrayBuffer(bytes.slice().buffer);
  throw new Error('no UTF-8 decoder on this platform');
}

/**
 * A string from a byte range of ASCII (request lines, header values already checked to be ASCII):
 * one native decode call. (String.fromCharCode.apply would put one argument per byte on the XS
 * stack, which a device's small stack cannot hold for a 1 KiB target.)
 */
export function ascii(bytes: Uint8Array, start: number, end: number): string {
  return utf8Decode(bytes.subarray(start, end));
}

/** UTF-8 byte length of a string without encoding it (Content-Length, name limits). */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length &&
      text.charCodeAt(i + 1) >= 0xdc00 && text.charCodeAt(i + 1) <= 0xdfff) { n += 4; i++; }
    else n += 3;
  }
  return n;
}
