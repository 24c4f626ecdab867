// Operating parameters: what a PUT changes lives here in RAM; system/save writes it to Preference
// (NVS on ESP32, a flash sector on the Pico, a JSON file on the desktop host) whole or not at all
// (hal/device/saved-banks.ts); boot and a soft reset read the saved values back over the defaults, so
// unsaved changes are dropped (docs/api.md §Answers).
//
// NVS limits shape the keys: a namespace and a key are at most 15 characters. Values longer than the
// Pico's Preference keeps are saved in pieces (saved-banks.ts).
//
// Preference is handed in (src/device/main.ts passes Moddable's `preference` module), not imported: this
// module is preloaded, and xsl runs the imports of a preloaded module at build time too. The desktop
// host's `preference` (modules/files/preference/lin) is JavaScript that reads its file into a static
// cache as it loads: preloaded, it would read at build time (nothing), never read the saved file at
// boot, and leave that cache as an object xsl warns is "not frozen". ESP32's is native and preloaded
// by the SDK itself.

import { ApiError, aErrSize, aErrIO } from '../kit/errors';
import { asBool, asBytes, asNumber, asString } from '../kit/value-guards';
import { SavedBanks } from './saved-banks';

export type SettingValue = number | boolean | string | Uint8Array;
/**
 * A factory value as define() takes it: a bytes setting's may be a frozen array of bytes (module data in
 * flash), read as a new Uint8Array each time, since a Uint8Array held for each would cost about ten
 * heap slots.
 */
export type SettingFactory = SettingValue | readonly number[];

/** A bytes setting's value or factory value. */
function isBytes(v: SettingFactory): v is Uint8Array | readonly number[] {
  return v instanceof Uint8Array || Array.isArray(v);
}

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
type Factories = { [key: string]: SettingFactory };

export class Settings {
  /** Where saved settings live (also the store entity's slots). */
  readonly prefs: PreferenceStore;
  private readonly banks: SavedBanks;
  private readonly defaults: Factories = Object.create(null) as Factories;
  /**
   * The values that are not the factory's (a PUT's, or a saved one read at boot); every other setting
   * reads its factory value: a module that runs on its factory settings holds one table, not two.
   */
  private readonly values: Table = Object.create(null) as Table;

  constructor(domain: string, prefs: PreferenceStore) {
    if (domain.length > NVS_NAME_MAX) throw new Error(`preference domain "${domain}" is longer than ${NVS_NAME_MAX}`);
    this.prefs = prefs;
    this.banks = new SavedBanks(prefs, domain);
  }

  /** Declare a setting and its factory value; the saved value, if any, is read now. */
  define(key: string, factory: SettingFactory): void {
    // A key too long for NVS is a programming error: fail at boot, not at the first save.
    if (key.length > NVS_NAME_MAX) throw new Error(`preference key "${key}" is longer than ${NVS_NAME_MAX}`);
    this.defaults[key] = factory;
    this.hold(key, this.loadOne(key, factory), factory);
  }

  get(key: string): SettingValue {
    const v = this.values[key];
    if (v !== undefined) return v;
    return this.factory(key);
  }

  /** The factory value of `key` as a value (a byte array read as a new Uint8Array). */
  private factory(key: string): SettingValue {
    const factory = this.defaults[key];
    if (factory === undefined) throw new Error(`undefined setting ${key}`);
    return Array.isArray(factory) ? Uint8Array.from(factory) : factory as SettingValue;
  }
  // Each setting keeps its factory value's type (loadOne, DeviceEntity.set): the guards only catch a
  // key read as the wrong kind, a bug.
  num(key: string): number { return asNumber(this.get(key), key); }
  bool(key: string): boolean { return asBool(this.get(key), key); }
  str(key: string): string { return asString(this.get(key), key); }
  bytes(key: string): Uint8Array { return asBytes(this.get(key), key); }

  set(key: string, value: SettingValue): void {
    if (this.defaults[key] === undefined) throw new Error(`undefined setting ${key}`);
    if (value instanceof Uint8Array) value = value.slice(); // the core's buffer is reused
    this.values[key] = value;
  }

  /** The value saved for `key` (its factory value when none is): what the next boot will read. */
  saved(key: string): SettingValue {
    const factory = this.defaults[key];
    if (factory === undefined) throw new Error(`undefined setting ${key}`);
    const v = this.loadOne(key, factory);
    return v === factory ? this.factory(key) : v as SettingValue;
  }

  /** system/save: every setting to Preference, all or nothing. */
  save(): void {
    const keys: string[] = [];
    for (const key in this.defaults) {
      const value = this.get(key);
      if (value instanceof Uint8Array && value.length > PREF_VALUE_MAX) {
        throw new ApiError(aErrSize, `setting ${key} is ${value.length} bytes; at most ${PREF_VALUE_MAX} can be saved`);
      }
      keys.push(key);
    }
    this.writeBanks(keys, (key) => {
      const value = this.get(key);
      return value instanceof Uint8Array ? value.slice().buffer as ArrayBuffer : value;
    });
  }

  /** A soft reset: back to the saved values (or the defaults where nothing was saved). */
  reload(): void {
    this.banks.open();
    for (const key in this.defaults) this.hold(key, this.loadOne(key, this.defaults[key]), this.defaults[key]);
  }

  /** Factory defaults: forget what was saved (a save of nothing, as whole as any). */
  erase(): void {
    const keys: string[] = [];
    for (const key in this.defaults) keys.push(key);
    this.writeBanks(keys, () => undefined);
    for (const key in this.defaults) delete this.values[key];
  }

  private writeBanks(keys: readonly string[], valueOf: (key: string) => PreferenceValue | undefined): void {
    try {
      this.banks.write(keys, valueOf);
    } catch (e) {
      this.banks.open(); // what the next boot reads: the last whole save
      throw new ApiError(aErrIO, `save failed: ${(e as Error).message}`);
    }
  }

  /** `value` for `key`: kept when it is not the factory value, else the key reads its factory value. */
  private hold(key: string, value: SettingFactory, factory: SettingFactory): void {
    if (value !== factory) this.values[key] = value as SettingValue;
    else delete this.values[key];
  }

  /** The saved value of `key`, or `factory` itself (the same object) when none of its type is saved. */
  private loadOne(key: string, factory: SettingFactory): SettingFactory {
    const saved = this.banks.read(key, typeof factory === 'string' || isBytes(factory));
    if (saved === undefined) return factory;
    // Keep the factory value's type: a stale entry of another type (an older firmware) is ignored.
    if (isBytes(factory)) return saved instanceof ArrayBuffer ? new Uint8Array(saved) : factory;
    if (typeof saved === 'number' || typeof saved === 'boolean' || typeof saved === 'string') {
      return typeof saved === typeof factory ? saved : factory;
    }
    return factory;
  }
}
Object.freeze(Settings.prototype);
