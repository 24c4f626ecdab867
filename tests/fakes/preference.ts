// Fake of Moddable's `preference` module: an in-memory NVS that survives a module being made again
// (a chip restart) until the test calls `clearPreferences`. Buffers are copied in and out.

type Value = boolean | number | string | ArrayBuffer;
const store = new Map<string, Value>();
/** NVS that fails every write (a worn or full partition) while set. */
export const nvs = { failing: false };

function id(domain: string, key: string): string {
  if (domain.length > 15 || key.length > 15) throw new Error(`NVS name too long: ${domain}/${key}`);
  return domain + '\u0000' + key;
}

export function clearPreferences(): void {
  store.clear();
  nvs.failing = false;
}

/** Every saved entry, "domain/key" -> value (for assertions). */
export function savedPreferences(): Map<string, Value> {
  const out = new Map<string, Value>();
  store.forEach((v, k) => out.set(k.replace('\u0000', '/'), v));
  return out;
}

export default class Preference {
  static get(domain: string, key: string): Value | undefined {
    const v = store.get(id(domain, key));
    return v instanceof ArrayBuffer ? v.slice(0) : v;
  }
  static set(domain: string, key: string, value: Value): void {
    if (nvs.failing) throw new Error('nvs_set failed');
    store.set(id(domain, key), value instanceof ArrayBuffer ? value.slice(0) : value);
  }
  static delete(domain: string, key: string): void {
    store.delete(id(domain, key));
  }
  static keys(domain: string): string[] {
    const out: string[] = [];
    store.forEach((_v, k) => { if (k.startsWith(domain + '\u0000')) out.push(k.slice(domain.length + 1)); });
    return out;
  }
}
