// Operating parameters: what a PUT changes lives here in RAM; system/save writes it to Preference
// (NVS on ESP32, a JSON file on the desktop host); boot and a soft reset read the saved values back over
// the defaults, so unsaved changes are dropped (DECISIONS.md §Responses).
//
// NVS limits shape the keys and values: a namespace and a key are at most 15 characters, and values stay
// small (the largest here is a 64-byte L8 value, far under the 4000-byte string / blob limits).

import Preference from 'preference';
import { ApiError, aErrSize, aErrIO } from '../../src/api/errors';

export type SettingValue = number | boolean | string | Uint8Array;

/** NVS: namespace and key names are at most 15 characters. */
export const NVS_NAME_MAX = 15;
/** Largest value written; NVS strings are limited to 4000 bytes, blobs by the partition. */
export const PREF_VALUE_MAX = 1024;

export class Settings {
  private readonly domain: string;
  private readonly defaults = new Map<string, SettingValue>();
  private readonly values = new Map<string, SettingValue>();

  constructor(domain: string) {
    if (domain.length > NVS_NAME_MAX) throw new Error(`preference domain "${domain}" is longer than ${NVS_NAME_MAX}`);
    this.domain = domain;
  }

  /** Declare a setting and its factory value; the saved value, if any, is read now. */
  define(key: string, factory: SettingValue): void {
    // A key too long for NVS is a programming error: fail at boot, not at the first save.
    if (key.length > NVS_NAME_MAX) throw new Error(`preference key "${key}" is longer than ${NVS_NAME_MAX}`);
    this.defaults.set(key, factory);
    this.values.set(key, this.loadOne(key, factory));
  }

  get(key: string): SettingValue {
    const v = this.values.get(key);
    if (v === undefined) throw new Error(`undefined setting ${key}`);
    return v;
  }
  num(key: string): number { return this.get(key) as number; }
  bool(key: string): boolean { return this.get(key) as boolean; }
  str(key: string): string { return this.get(key) as string; }
  bytes(key: string): Uint8Array { return this.get(key) as Uint8Array; }

  set(key: string, value: SettingValue): void {
    if (!this.values.has(key)) throw new Error(`undefined setting ${key}`);
    if (value instanceof Uint8Array) value = value.slice(); // the core's buffer is reused
    this.values.set(key, value);
  }

  /** system/save: every setting to Preference. */
  save(): void {
    try {
      this.values.forEach((value, key) => {
        const stored = value instanceof Uint8Array ? value.slice().buffer as ArrayBuffer : value;
        if (value instanceof Uint8Array && value.length > PREF_VALUE_MAX) {
          throw new ApiError(aErrSize, `setting ${key} is ${value.length} bytes; at most ${PREF_VALUE_MAX} can be saved`);
        }
        Preference.set(this.domain, key, stored);
      });
    } catch (e) {
      if (e instanceof ApiError) throw e;
      throw new ApiError(aErrIO, `save failed: ${(e as Error).message}`);
    }
  }

  /** A soft reset: back to the saved values (or the defaults where nothing was saved). */
  reload(): void {
    this.defaults.forEach((factory, key) => this.values.set(key, this.loadOne(key, factory)));
  }

  /** Factory defaults: forget what was saved. */
  erase(): void {
    this.defaults.forEach((factory, key) => {
      try { Preference.delete(this.domain, key); } catch { /* absent */ }
      this.values.set(key, factory);
    });
  }

  private loadOne(key: string, factory: SettingValue): SettingValue {
    let saved: string | boolean | number | ArrayBuffer | undefined;
    try {
      saved = Preference.get(this.domain, key);
    } catch {
      return factory; // an unreadable entry is as good as none
    }
    if (saved === undefined) return factory;
    // Keep the factory value's type: a stale entry of another type (an older firmware) is ignored.
    if (factory instanceof Uint8Array) return saved instanceof ArrayBuffer ? new Uint8Array(saved) : factory;
    return typeof saved === typeof factory ? saved as SettingValue : factory;
  }
}
Object.freeze(Settings.prototype);
