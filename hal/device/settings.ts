// Operating parameters: what a PUT changes lives here in RAM; system/save writes it to Preference
// (NVS on ESP32, a JSON file on the desktop host); boot and a soft reset read the saved values back over
// the defaults, so unsaved changes are dropped (docs/api.md §Answers).
//
// NVS limits shape the keys and values: a namespace and a key are at most 15 characters, and values stay
// small (the largest here is a 64-byte L8 value, far under the 4000-byte string / blob limits).
//
// Preference is handed in (src/device/main.ts passes Moddable's `preference` module), not imported: this
// module is preloaded, and xsl runs the imports of a preloaded module at build time too. The desktop
// host's `preference` (modules/files/preference/lin) is JavaScript that reads its file into a static
// cache as it loads: preloaded, it would read at build time (nothing), never read the saved file at
// boot, and leave that cache as an object xsl warns is "not frozen". ESP32's is native and preloaded
// by the SDK itself.

import { ApiError, aErrSize, aErrIO } from '../kit/errors';
import { asBool, asBytes, asNumber, asString } from '../kit/value-guards';

export type SettingValue = number | boolean | string | Uint8Array;

/** What a Preference value can be: Moddable's `preference` module stores these. */
export type PreferenceValue = string | boolean | number | ArrayBuffer;

/** Moddable's `preference` module (static methods), or a fake of it in the tests. */
export interface PreferenceStore {
  get(domain: string, key: string): PreferenceValue | undefined;
  set(domain: string, key: string, value: PreferenceValue): void;
  delete(domain: string, key: string): void;
}

/** NVS: namespace and key names are at most 15 characters. */
export const NVS_NAME_MAX = 15;
/** Largest value written; NVS strings are limited to 4000 bytes, blobs by the partition. */
export const PREF_VALUE_MAX = 1024;

/** Setting key -> value. Plain objects, not Maps: one XS slot per entry instead of several. */
type Table = { [key: string]: SettingValue };

export class Settings {
  private readonly domain: string;
  /** Where saved settings live (also the store entity's slots). */
  readonly prefs: PreferenceStore;
  private readonly defaults: Table = Object.create(null) as Table;
  private readonly values: Table = Object.create(null) as Table;

  constructor(domain: string, prefs: PreferenceStore) {
    if (domain.length > NVS_NAME_MAX) throw new Error(`preference domain "${domain}" is longer than ${NVS_NAME_MAX}`);
    this.domain = domain;
    this.prefs = prefs;
  }

  /** Declare a setting and its factory value; the saved value, if any, is read now. */
  define(key: string, factory: SettingValue): void {
    // A key too long for NVS is a programming error: fail at boot, not at the first save.
    if (key.length > NVS_NAME_MAX) throw new Error(`preference key "${key}" is longer than ${NVS_NAME_MAX}`);
    this.defaults[key] = factory;
    this.values[key] = this.loadOne(key, factory);
  }

  get(key: string): SettingValue {
    const v = this.values[key];
    if (v === undefined) throw new Error(`undefined setting ${key}`);
    return v;
  }
  // Each setting keeps its factory value's type (loadOne, DeviceEntity.set): the guards only catch a
  // key read as the wrong kind, a bug.
  num(key: string): number { return asNumber(this.get(key), key); }
  bool(key: string): boolean { return asBool(this.get(key), key); }
  str(key: string): string { return asString(this.get(key), key); }
  bytes(key: string): Uint8Array { return asBytes(this.get(key), key); }

  set(key: string, value: SettingValue): void {
    if (this.values[key] === undefined) throw new Error(`undefined setting ${key}`);
    if (value instanceof Uint8Array) value = value.slice(); // the core's buffer is reused
    this.values[key] = value;
  }

  /** The value saved for `key` (its factory value when none is): what the next boot will read. */
  saved(key: string): SettingValue {
    const factory = this.defaults[key];
    if (factory === undefined) throw new Error(`undefined setting ${key}`);
    return this.loadOne(key, factory);
  }

  /** system/save: every setting to Preference. */
  save(): void {
    try {
      for (const key in this.values) {
        const value = this.values[key];
        const stored = value instanceof Uint8Array ? value.slice().buffer as ArrayBuffer : value;
        if (value instanceof Uint8Array && value.length > PREF_VALUE_MAX) {
          throw new ApiError(aErrSize, `setting ${key} is ${value.length} bytes; at most ${PREF_VALUE_MAX} can be saved`);
        }
        this.prefs.set(this.domain, key, stored);
      }
    } catch (e) {
      if (e instanceof ApiError) throw e;
      throw new ApiError(aErrIO, `save failed: ${(e as Error).message}`);
    }
  }

  /** A soft reset: back to the saved values (or the defaults where nothing was saved). */
  reload(): void {
    for (const key in this.defaults) this.values[key] = this.loadOne(key, this.defaults[key]);
  }

  /** Factory defaults: forget what was saved. */
  erase(): void {
    for (const key in this.defaults) {
      try { this.prefs.delete(this.domain, key); } catch { /* absent */ }
      this.values[key] = this.defaults[key];
    }
  }

  private loadOne(key: string, factory: SettingValue): SettingValue {
    let saved: PreferenceValue | undefined;
    try {
      saved = this.prefs.get(this.domain, key);
    } catch {
      return factory; // an unreadable entry is as good as none
    }
    if (saved === undefined) return factory;
    // Keep the factory value's type: a stale entry of another type (an older firmware) is ignored.
    if (factory instanceof Uint8Array) return saved instanceof ArrayBuffer ? new Uint8Array(saved) : factory;
    if (typeof saved === 'number' || typeof saved === 'boolean' || typeof saved === 'string') {
      return typeof saved === typeof factory ? saved : factory;
    }
    return factory;
  }
}
Object.freeze(Settings.prototype);
