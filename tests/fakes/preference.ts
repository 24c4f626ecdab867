// Fake of Moddable's `preference` module: an in-memory flash store that survives a module being made
// again (a chip restart) until the test calls `clearPreferences`. Buffers are copied in and out.
//
// As on both chips, writing a key erases its old entry first and then writes the new one, two steps a
// power cut can fall between (ESP32 modules/files/preference/esp32/modPreference.c:30,51-84, ERASE_KEY
// then nvs_set_*; Pico modules/files/preference/esp/modPreference.c:353 erasePref, then the write).
// `nvs` makes it misbehave like a chip:
// - failing: every write throws (a worn or full partition);
// - writesLeft: that many more writes land, then every later one throws (a save that fails part-way);
// - cutAfter: that many more flash steps land (an erase or a write each), then the power is gone:
//   the step and every later one are lost and throw, until powerBack() (the next boot);
// - pico: the Pico's limits: a value over 63 bytes is refused (modPreference.c:348, a string's NUL
//   counted, "can't save prefs" at :104-105), and a buffer is read back through a 64-byte buffer that
//   also holds its type byte and 2-byte length (modPreference.c:111,123-134 after findPrefOffset
//   reads 64 bytes at the value, :304): bytes past the 61st come from beyond that buffer.

type Value = boolean | number | string | ArrayBuffer;
const store = new Map<string, Value>();

export const nvs = { failing: false, writesLeft: -1, cutAfter: -1, pico: false, steps: 0 };

/** The value a Pico reads for bytes past its 64-byte read buffer (whatever the stack holds). */
export const PICO_STACK_BYTE = 0xa5;

function id(domain: string, key: string): string {
  if (domain.length > 15 || key.length > 15) throw new Error(`NVS name too long: ${domain}/${key}`);
  return domain + '\u0000' + key;
}

export function clearPreferences(): void {
  store.clear();
  nvs.failing = false;
  nvs.writesLeft = -1;
  nvs.cutAfter = -1;
  nvs.pico = false;
  nvs.steps = 0;
}

/** The power comes back (a boot after a cut): the flash works again, holding what landed. */
export function powerBack(): void {
  nvs.cutAfter = -1;
  nvs.writesLeft = -1;
}

/** Every saved entry, "domain/key" -> value (for assertions). */
export function savedPreferences(): Map<string, Value> {
  const out = new Map<string, Value>();
  store.forEach((v, k) => out.set(k.replace('\u0000', '/'), v));
  return out;
}

/** One flash step (an erase or a write): counted, and lost once the power is cut. */
function step(): void {
  nvs.steps++;
  if (nvs.cutAfter === 0) throw new Error('power cut');
  if (nvs.cutAfter > 0) nvs.cutAfter--;
}

function utf8Length(s: string): number {
  return new TextEncoder().encode(s).length;
}

function picoRefuses(value: Value): boolean {
  if (typeof value === 'string') return utf8Length(value) + 1 > 63;
  return value instanceof ArrayBuffer && value.byteLength > 63;
}

export default class Preference {
  static get(domain: string, key: string): Value | undefined {
    const v = store.get(id(domain, key));
    if (!(v instanceof ArrayBuffer)) return v;
    const copy = new Uint8Array(v.slice(0));
    if (nvs.pico) copy.fill(PICO_STACK_BYTE, 61);
    return copy.buffer;
  }
  static set(domain: string, key: string, value: Value): void {
    const k = id(domain, key);
    if (nvs.failing || nvs.writesLeft === 0) throw new Error('nvs set fail');
    if (nvs.pico && picoRefuses(value)) throw new Error("can't save prefs");
    if (nvs.writesLeft > 0) nvs.writesLeft--;
    step();
    store.delete(k);
    step();
    store.set(k, value instanceof ArrayBuffer ? value.slice(0) : value);
  }
  static delete(domain: string, key: string): void {
    const k = id(domain, key);
    if (!store.has(k)) return; // nothing to erase: no flash step
    step();
    store.delete(k);
  }
  static keys(domain: string): string[] {
    const out: string[] = [];
    store.forEach((_v, k) => { if (k.startsWith(domain + '\u0000')) out.push(k.slice(domain.length + 1)); });
    return out;
  }
}
