// Byte-level syntax of RFC 9110/9112 that the request parser checks: token characters, hex digits,
// case-insensitive comparison and token lists, Host characters. Pure functions over bytes.

const SP = 32;
const HT = 9;
const COMMA = 44;

/**
 * tchar of RFC 9110 §5.6.2 as a 128-character string indexed by byte: 't' = allowed. A string (not a
 * typed array) so the table is immutable and a preloaded build keeps it in flash.
 */
const TCHAR =
  '................................' + // 0-31: controls
  '.t.ttttt..tt.tt.tttttttttt......' + // 32-63: SP ! " # $ % & ' ( ) * + , - . / 0-9 : ; < = > ?
  '.tttttttttttttttttttttttttt...tt' + // 64-95: @ A-Z [ \ ] ^ _
  'ttttttttttttttttttttttttttt.t.t.'; // 96-127: ` a-z { | } ~ DEL
const T = 116; // 't'

export function isTchar(b: number): boolean {
  return b < 128 && TCHAR.charCodeAt(b) === T;
}

export function hexValue(b: number): number {
  if (b >= 48 && b <= 57) return b - 48;
  if (b >= 65 && b <= 70) return b - 55;
  if (b >= 97 && b <= 102) return b - 87;
  return -1;
}

/** Does buf[start, end) equal `lower` ignoring ASCII case? `lower` is lower-case ASCII. */
export function equalsLower(buf: Uint8Array, start: number, end: number, lower: string): boolean {
  if (end - start !== lower.length) return false;
  for (let i = 0; i < lower.length; i++) {
    let b = buf[start + i];
    if (b >= 65 && b <= 90) b += 32;
    if (b !== lower.charCodeAt(i)) return false;
  }
  return true;
}

/** Is `lower` one of the comma-separated tokens of buf[start, end) (ASCII case ignored)? */
export function hasToken(buf: Uint8Array, start: number, end: number, lower: string): boolean {
  let i = start;
  while (i < end) {
    while (i < end && (buf[i] === SP || buf[i] === HT || buf[i] === COMMA)) i++;
    const s = i;
    while (i < end && buf[i] !== COMMA) i++;
    let e = i;
    while (e > s && (buf[e - 1] === SP || buf[e - 1] === HT)) e--;
    if (equalsLower(buf, s, e, lower)) return true;
  }
  return false;
}

/** Host field value: reg-name / IP-literal characters and a port, nothing else (RFC 3986). */
export function isHostChar(b: number): boolean {
  if ((b >= 48 && b <= 58) || (b >= 65 && b <= 91) || b === 93 || (b >= 97 && b <= 122)) return true;
  // - . _ ~ ! $ & ' ( ) * + , ; = %
  return b === 45 || b === 46 || b === 95 || b === 126 || b === 33 || b === 36 || (b >= 38 && b <= 44) ||
    b === 59 || b === 61 || b === 37;
}
