// The module's non-volatile memory, kept as one JSON document in SimStorage: saved settings (what
// system/save and userconfig/saveentitytostore write), persistent store slots (internal flash), and the
// lifetime temperature extremes. Written whenever one of them changes; read once at power-up.

import type { HalValue } from '../types';
import type { Settings } from './registers';
import { isList } from '../kit/value-guards';

export interface SimStorage {
  load(): string | undefined;
  save(text: string): void;
}

export function memoryStorage(initial?: string): SimStorage {
  let text = initial;
  return { load: () => text, save: (t: string) => { text = t; } };
}

export interface SavedSlot {
  readonly data: number[];
  readonly enabled: boolean;
  readonly locked: boolean;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

interface Doc {
  settings: { [entity: string]: { [index: string]: { [key: string]: Json } } };
  flash: { [store: string]: SavedSlot[] };
  temperature?: { min: number; max: number };
  /** The firmware slots (firmware-slots.ts), kept as the flash keeps them. */
  firmware?: Json;
}

function toJson(v: HalValue): Json {
  if (v instanceof Uint8Array) return { bytes: Array.from(v) };
  if (isList(v)) return v.slice();
  return v;
}

function fromJson(j: Json): HalValue | undefined {
  if (typeof j === 'number' || typeof j === 'boolean' || typeof j === 'string') return j;
  if (Array.isArray(j)) return j.filter((x): x is number => typeof x === 'number');
  if (j && typeof j === 'object' && Array.isArray(j.bytes)) {
    return new Uint8Array(j.bytes.filter((x): x is number => typeof x === 'number'));
  }
  return undefined;
}

/** The document in `text`; a missing or damaged one is a blank flash, as on a module whose settings checksum fails. */
function parseDoc(text: string | undefined): Doc {
  if (!text) return { settings: {}, flash: {} };
  try {
    const parsed = JSON.parse(text) as Partial<Doc>;
    if (parsed && typeof parsed === 'object') {
      return {
        settings: parsed.settings && typeof parsed.settings === 'object' ? parsed.settings : {},
        flash: parsed.flash && typeof parsed.flash === 'object' ? parsed.flash : {},
        temperature: parsed.temperature,
        firmware: parsed.firmware,
      };
    }
  } catch { /* damaged: blank */ }
  return { settings: {}, flash: {} };
}

export class Persist {
  private doc: Doc;
  /** Set when storage.save threw: the module reports it in system/errors. */
  failed = false;

  /** The text last read from or written to storage: what the flash holds. */
  private stored: string | undefined;

  constructor(private readonly storage: SimStorage) {
    try {
      this.stored = storage.load();
    } catch {
      this.stored = undefined;
    }
    this.doc = parseDoc(this.stored);
  }

  settingsOf(entity: string, index: number): Settings | undefined {
    const saved = this.doc.settings[entity]?.[String(index)];
    if (!saved) return undefined;
    const out: Settings = {};
    for (const key of Object.keys(saved)) {
      const v = fromJson(saved[key]);
      if (v !== undefined) out[key] = v;
    }
    return out;
  }

  setSettings(entity: string, index: number, settings: Settings): void {
    const e = this.doc.settings[entity] ?? (this.doc.settings[entity] = {});
    const out: { [key: string]: Json } = {};
    for (const key of Object.keys(settings)) out[key] = toJson(settings[key]);
    e[String(index)] = out;
  }

  clearSettings(): void {
    this.doc.settings = {};
  }

  flashOf(store: number): SavedSlot[] | undefined {
    return this.doc.flash[String(store)];
  }

  setFlash(store: number, slots: SavedSlot[]): void {
    this.doc.flash[String(store)] = slots;
  }

  get temperature(): { min: number; max: number } | undefined {
    return this.doc.temperature;
  }

  set temperature(t: { min: number; max: number } | undefined) {
    this.doc.temperature = t;
  }

  get firmware(): unknown {
    return this.doc.firmware;
  }

  set firmware(f: unknown) {
    this.doc.firmware = f as Json;
  }

  /** Everything to storage; when that fails the flash keeps what it had, and so does this copy of it. */
  write(): void {
    const text = JSON.stringify(this.doc);
    try {
      this.storage.save(text);
      this.stored = text;
    } catch {
      this.failed = true;
      this.doc = parseDoc(this.stored);
    }
  }
}
