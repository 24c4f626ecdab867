// Text <-> bytes for device-side code. The UTF-8 codec is a platform service handed to the HTTP and
// API cores when they are made (never a module-level variable: a preloaded module is frozen, and
// host functions such as TextEncoder do not exist yet at preload time). XS offers TextEncoder and
// TextDecoder (xsnap; Moddable's text/encoder and text/decoder modules) and the XS-only
// ArrayBuffer.fromString / String.fromArrayBuffer; Node offers TextEncoder/TextDecoder (host-sim/
// hands in a faster codec of its own).

export interface TextCodec {
  /** UTF-8 bytes of a string. */
  encode(text: string): Uint8Array;
  /** A string from UTF-8 bytes (invalid sequences become U+FFFD). */
  decode(bytes: Uint8Array): string;
  /** UTF-8 byte count of a string (a Content-Length): native where the platform has it. */
  byteLength(text: string): number;
  /**
   * Optional: bytes [start, end) as one char per byte (Latin-1), natively, with no view made first.
   * The parser's fast path then finds a head's end in text, where char offsets are byte offsets.
   */
  latin1?(bytes: Uint8Array, start: number, end: number): string;
  /** Optional: bytes [start, end) decoded as UTF-8 (as decode), natively, with no view made first. */
  utf8?(bytes: Uint8Array, start: number, end: number): string;
}

interface Encoder { encode(text: string): Uint8Array }
interface Decoder { decode(bytes: Uint8Array): string }
declare const TextEncoder: { new(): Encoder } | undefined;
declare const TextDecoder: { new(): Decoder } | undefined;
interface XsArrayBuffer { fromString(text: string): ArrayBuffer }
interface XsString { fromArrayBuffer(buffer: ArrayBuffer): string }

/** TextEncoder and TextDecoder as a TextCodec: its methods on a frozen prototype, not closures per codec. */
class StandardCodec implements TextCodec {
  private readonly encoder: Encoder;
  private readonly decoder: Decoder;

  constructor(encoder: Encoder, decoder: Decoder) {
    this.encoder = encoder;
    this.decoder = decoder;
  }

  encode(text: string): Uint8Array { return this.encoder.encode(text); }
  decode(bytes: Uint8Array): string { return this.decoder.decode(bytes); }
  // One native encode: counting in script costs a bytecode step per character.
  byteLength(text: string): number { return this.encoder.encode(text).length; }
}
Object.freeze(StandardCodec.prototype);

/** The engine's own UTF-8 codec. Call it at run time, once, when the server is made. */
export function standardTextCodec(): TextCodec {
  if (typeof TextEncoder === 'function' && typeof TextDecoder === 'function') {
    return new StandardCodec(new TextEncoder(), new TextDecoder());
  }
  // XS without the text modules: its own conversions, called as methods (they use `this`).
  const xsBuffer = ArrayBuffer as unknown as XsArrayBuffer;
  const xsString = String as unknown as XsString;
  if (typeof xsBuffer.fromString !== 'function') throw new Error('no UTF-8 codec on this platform');
  return {
    encode: (text) => new Uint8Array(xsBuffer.fromString(text)),
    decode: (bytes) => xsString.fromArrayBuffer(bytes.slice().buffer),
    byteLength: (text) => xsBuffer.fromString(text).byteLength,
  };
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
