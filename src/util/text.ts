// Text <-> bytes for device-side code. XS offers TextEncoder/TextDecoder (xsnap, and Moddable's
// text/encoder + text/decoder modules) and the XS-only ArrayBuffer.fromString/String.fromArrayBuffer;
// Node offers TextEncoder/TextDecoder. The choice is made once, at module load.

interface Encoder { encode(text: string): Uint8Array }
interface Decoder { decode(bytes: Uint8Array): string }
declare const TextEncoder: { new(): Encoder } | undefined;
declare const TextDecoder: { new(label?: string, options?: { fatal?: boolean }): Decoder } | undefined;

type XsArrayBuffer = { fromString?(text: string): ArrayBuffer };
type XsString = { fromArrayBuffer?(buffer: ArrayBuffer): string };

let encoder: Encoder | null = typeof TextEncoder === 'function' ? new TextEncoder() : null;
let decoder: Decoder | null = typeof TextDecoder === 'function' ? new TextDecoder() : null;

/**
 * Let a host supply faster codecs than the standard ones (Node's TextEncoder costs over 1 µs for a
 * response; its Buffer does the same in a tenth of that). Device builds never call this.
 */
export function useTextCodecs(encode: Encoder, decode: Decoder): void {
  encoder = encode;
  decoder = decode;
}
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

/** Bytes per String.fromCharCode call: small enough for a device's XS stack (one slot per byte). */
const ASCII_RUN = 64;

/**
 * A string from a byte range of ASCII (request lines, already checked to be ASCII), in runs of at
 * most 64 bytes per call: a request target takes one or two calls, never one per byte.
 */
export function ascii(bytes: Uint8Array, start: number, end: number): string {
  if (end - start <= ASCII_RUN) return asciiRun(bytes, start, end);
  let text = '';
  for (let i = start; i < end; i += ASCII_RUN) text += asciiRun(bytes, i, i + ASCII_RUN < end ? i + ASCII_RUN : end);
  return text;
}

function asciiRun(bytes: Uint8Array, start: number, end: number): string {
  // apply() takes any array-like: the typed array's bytes become the char codes.
  return String.fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[]);
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
