// The modules' bearer tokens, from a file the operator names (--tokens): one `SERIAL TOKEN` per line,
// `*` for every module without a line of its own, `#` comments. Errors name the line, never a token.

import { parseSerial } from '../src/api/serial';

export function parseTokens(text: string): Map<number | '*', string> {
  const out = new Map<number | '*', string>();
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '' || line.startsWith('#')) continue;
    const parts = line.split(/\s+/);
    const serial = parts[0] === '*' ? '*' : parseSerial(parts[0]);
    if (parts.length !== 2 || serial === -1 || (serial !== '*' && (serial > 0xffffffff || parts[0].replace(/^0x/i, '').length > 8))) {
      throw new Error(`line ${i + 1} is not 'SERIAL TOKEN' (SERIAL: up to 8 hex digits or *)`);
    }
    if (!/^[\x21-\x7e]+$/.test(parts[1])) throw new Error(`line ${i + 1}: the token must be printable ASCII`);
    if (out.has(serial)) throw new Error(`line ${i + 1}: a second token for ${parts[0]}`);
    out.set(serial, parts[1]);
  }
  return out;
}

/** The token to send to module `serial`, or '' for none. */
export function tokenFor(tokens: ReadonlyMap<number | '*', string>, serial: number): string {
  return tokens.get(serial) ?? tokens.get('*') ?? '';
}
