// Syntax of RFC 9110/9112 that the request parser checks: token characters and hex digits (bytes),
// and the codings of a Transfer-Encoding value.

const SP = 32;
const HT = 9;

/**
 * tchar of RFC 9110 §5.6.2 as a 128-character string ('1' = allowed): a string, not a typed array,
 * so that the preloaded module keeps it in flash.
 */
const TCHAR =
  '00000000000000000000000000000000' + // 0x00-0x1f
  '01011111001101101111111111000000' + // SP ! " # $ % & ' ( ) * + , - . / 0-9 : ; < = > ?
  '01111111111111111111111111100011' + // @ A-Z [ \ ] ^ _
  '11111111111111111111111111101010'; //  ` a-z { | } ~ DEL

export function isTchar(b: number): boolean {
  return b < 128 && TCHAR.charCodeAt(b) === 49;
}

export function hexValue(b: number): number {
  if (b >= 48 && b <= 57) return b - 48;
  if (b >= 65 && b <= 70) return b - 55;
  if (b >= 97 && b <= 102) return b - 87;
  return -1;
}

const CODINGS_KNOWN = Object.freeze(['gzip', 'deflate', 'compress', 'x-gzip', 'x-compress', 'identity']);

/** A coding of a Transfer-Encoding list, `from` to `to`, without its surrounding SP and HT, in lower case. */
function coding(value: string, from: number, to: number): string {
  while (from < to && (value.charCodeAt(from) === SP || value.charCodeAt(from) === HT)) from++;
  while (to > from && (value.charCodeAt(to - 1) === SP || value.charCodeAt(to - 1) === HT)) to--;
  return value.slice(from, to).toLowerCase();
}

/**
 * Check a Transfer-Encoding value: 0 when it is exactly `chunked` once (and no earlier
 * Transfer-Encoding field was seen), 501 for a coding we do not know, else 400.
 */
export function transferCodingsStatus(value: string, seenBefore: boolean): number {
  let status = 0;
  let codings = 0;
  for (let i = 0; i <= value.length;) {
    let ce = value.indexOf(',', i);
    if (ce < 0) ce = value.length;
    // Parameters (";q=...") are not taken apart: a coding with them is not plain chunked.
    const c = coding(value, i, ce);
    if (c) {
      codings++;
      if (c !== 'chunked') {
        if (CODINGS_KNOWN.indexOf(c) < 0) return 501;
        status = 400;
      }
    }
    i = ce + 1;
  }
  if (status) return status;
  return codings !== 1 || seenBefore ? 400 : 0;
}
