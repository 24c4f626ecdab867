// Desktop-host (lin) stand-in for `preference` in the budget builds, which stand for an ESP32's heap
// (budget/module-features.json). As on an ESP32, whose `preference` keeps values in NVS through native
// code, nothing stays in the XS heap between calls: each value is a file of its own
// (`{config.file.root}brainstem-preferences/{domain}.{key}`: a type byte, then the value), read
// and written when asked. The SDK's lin `preference` instead reads every saved value into one
// JavaScript object as it loads (about 130 slots before the app has done anything), which no module
// holds. Names are NVS names (at most 15 characters); values are what Preference takes.

import { Directory, File } from 'file';
import config from 'mc/config';

// Globals, as Node and xsnap have them and src/device/text-globals makes them on a module (a module
// mapped under another name, as this one is, cannot import the project's own by a relative path).
declare const TextEncoder: { new(): { encode(text: string): Uint8Array } };
declare const TextDecoder: { new(): { decode(bytes: Uint8Array): string } };

const ROOT = ((config as { file?: { root?: string } }).file?.root ?? '/tmp/') + 'brainstem-preferences/';
/** Type bytes: s(tring), n(umber), b(oolean), a(rray buffer). */
const STRING = 115;
const NUMBER = 110;
const BOOLEAN = 98;
const BUFFER = 97;
const NAME_MAX = 15;

function pathOf(domain: string, key: string): string {
  if (domain.length > NAME_MAX || key.length > NAME_MAX) throw new RangeError(`preference name too long: ${domain}.${key}`);
  return ROOT + domain + '.' + key;
}

function textBytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

function text(bytes: ArrayBuffer): string {
  return new TextDecoder().decode(new Uint8Array(bytes));
}

export default class Preference {
  static get(domain: string, key: string): string | number | boolean | ArrayBuffer | undefined {
    const path = pathOf(domain, key);
    if (!File.exists(path)) return undefined;
    const file = new File(path);
    let bytes: ArrayBuffer;
    try {
      bytes = file.read(ArrayBuffer) as ArrayBuffer;
    } finally {
      file.close();
    }
    const body = bytes.slice(1);
    switch (new Uint8Array(bytes, 0, 1)[0]) {
      case STRING: return text(body);
      case NUMBER: return Number(text(body));
      case BOOLEAN: return new Uint8Array(body)[0] === 1;
      case BUFFER: return body;
    }
    return undefined;
  }

  static set(domain: string, key: string, value: string | number | boolean | ArrayBuffer): void {
    const path = pathOf(domain, key);
    let type: number;
    let body: Uint8Array;
    if (typeof value === 'string') [type, body] = [STRING, textBytes(value)];
    else if (typeof value === 'number') [type, body] = [NUMBER, textBytes(String(value))];
    else if (typeof value === 'boolean') [type, body] = [BOOLEAN, Uint8Array.of(value ? 1 : 0)];
    else if (value instanceof ArrayBuffer) [type, body] = [BUFFER, new Uint8Array(value)];
    else throw new TypeError(`preference ${domain}.${key}: unsupported value`);
    const bytes = new Uint8Array(body.length + 1);
    bytes[0] = type;
    bytes.set(body, 1);
    try {
      Directory.create(ROOT);
    } catch {
      // there already
    }
    if (File.exists(path)) File.delete(path);
    const file = new File(path, true);
    try {
      file.write(bytes.buffer);
    } finally {
      file.close();
    }
  }

  static delete(domain: string, key: string): void {
    const path = pathOf(domain, key);
    if (File.exists(path)) File.delete(path);
  }
}
Object.freeze(Preference.prototype);
