// How system/save lands whole: two banks of settings in Preference, each with a commit mark written
// last. A save writes the bank not in use (its mark deleted first, so a half-written bank is never
// read), then the mark, numbered one past the other bank's: the next boot reads the bank with the
// higher mark, so a save that failed or was cut by a power loss at any point leaves every value of the
// previous save, and one whose mark landed gives every value of the new one. Both chips erase a key
// before writing it again (ESP32 modules/files/preference/esp32/modPreference.c:30,51-84; Pico
// modules/files/preference/esp/modPreference.c:353): the mark of the bank in use is never rewritten.
//
// Values longer than a piece are split: piece k under domain `<bank><k>` with the same key, and the
// bank's own entry holds the number of pieces. The Pico's Preference refuses values over 63 bytes
// (modPreference.c:348, a string's NUL counted) and reads a value back through a 64-byte buffer that
// holds the type byte and a buffer's 2-byte length too (modPreference.c:111,134 with :304), so a
// buffer piece is at most 61 bytes: one piece size for every platform, so that the format is one.
//
// Settings saved before the banks (one entry per key in the `legacy` domain) are read while no bank
// has a mark; the first save moves them into a bank and deletes them.

import type { PreferenceStore, PreferenceValue } from './settings';

const BANKS: readonly string[] = Object.freeze(['set.a', 'set.b']);
const COMMIT = 'commit';
/** Largest piece in bytes (UTF-8 for a string, without its NUL). */
export const PIECE_MAX = 61;

/** Bytes of `s` from `from` to the end of the piece that starts there (no pair of surrogates split). */
function pieceEnd(s: string, from: number): number {
  let bytes = 0;
  let k = from;
  while (k < s.length) {
    const c = s.charCodeAt(k);
    const pair = c >= 0xd800 && c < 0xdc00 && k + 1 < s.length;
    const n = pair ? 4 : c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
    if (bytes + n > PIECE_MAX) break;
    bytes += n;
    k += pair ? 2 : 1;
  }
  return k;
}

/** Does `value` fit in one piece? */
function fits(value: PreferenceValue): boolean {
  if (value instanceof ArrayBuffer) return value.byteLength <= PIECE_MAX;
  return typeof value !== 'string' || pieceEnd(value, 0) === value.length;
}

/** `value` (a string or bytes that does not fit) in pieces of at most PIECE_MAX bytes. */
function pieces(value: PreferenceValue): PreferenceValue[] {
  if (value instanceof ArrayBuffer) {
    const out: PreferenceValue[] = [];
    for (let k = 0; k < value.byteLength; k += PIECE_MAX) out.push(value.slice(k, k + PIECE_MAX));
    return out;
  }
  const s = value as string;
  const out: PreferenceValue[] = [];
  let k = 0;
  do {
    const end = pieceEnd(s, k);
    out.push(s.slice(k, end));
    k = end;
  } while (k < s.length);
  return out;
}

/** Pieces joined: a string of strings, an ArrayBuffer of ArrayBuffers; undefined when one is missing. */
function join(parts: (PreferenceValue | undefined)[]): PreferenceValue | undefined {
  if (typeof parts[0] === 'string') {
    let s = '';
    for (let k = 0; k < parts.length; k++) {
      if (typeof parts[k] !== 'string') return undefined;
      s += parts[k] as string;
    }
    return s;
  }
  let total = 0;
  for (let k = 0; k < parts.length; k++) {
    const p = parts[k];
    if (!(p instanceof ArrayBuffer)) return undefined;
    total += p.byteLength;
  }
  const out = new Uint8Array(total);
  for (let k = 0, at = 0; k < parts.length; k++) {
    const p = parts[k] as ArrayBuffer;
    out.set(new Uint8Array(p), at);
    at += p.byteLength;
  }
  return out.buffer;
}

export class SavedBanks {
  private readonly prefs: PreferenceStore;
  private readonly legacy: string;
  /** The bank of the last whole save (0 or 1), or -1: none yet (the legacy domain is read). */
  private active = -1;
  /** Its commit mark. */
  private mark = 0;

  constructor(prefs: PreferenceStore, legacy: string) {
    this.prefs = prefs;
    this.legacy = legacy;
    this.open();
  }

  /** Find the bank of the last whole save. */
  open(): void {
    this.active = -1;
    this.mark = 0;
    for (let b = 0; b < BANKS.length; b++) {
      const m = this.tryGet(BANKS[b], COMMIT);
      if (typeof m === 'number' && (this.active < 0 || m > this.mark)) {
        this.active = b;
        this.mark = m;
      }
    }
  }

  /** The saved value of `key` (joined when it was split: `split`, a string or bytes setting). */
  read(key: string, split: boolean): PreferenceValue | undefined {
    if (this.active < 0) return this.tryGet(this.legacy, key);
    const bank = BANKS[this.active];
    const v = this.tryGet(bank, key);
    if (!split || typeof v !== 'number') return v;
    const parts: (PreferenceValue | undefined)[] = [];
    for (let k = 0; k < v; k++) parts.push(this.tryGet(bank + k, key));
    return v > 0 ? join(parts) : undefined;
  }

  /** Write `values` (key -> value; undefined: nothing saved, the factory value) whole, or throw. */
  write(keys: readonly string[], valueOf: (key: string) => PreferenceValue | undefined): void {
    const next = this.active === 0 ? 1 : 0;
    const bank = BANKS[next];
    this.prefs.delete(bank, COMMIT);
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k];
      const v = valueOf(key);
      if (v === undefined) {
        this.prefs.delete(bank, key);
        continue;
      }
      if (fits(v)) {
        this.prefs.set(bank, key, v);
        continue;
      }
      const p = pieces(v);
      for (let n = 0; n < p.length; n++) this.prefs.set(bank + n, key, p[n]);
      this.prefs.set(bank, key, p.length);
    }
    const mark = this.active < 0 ? 1 : this.mark + 1;
    this.prefs.set(bank, COMMIT, mark);
    const wasLegacy = this.active < 0;
    this.active = next;
    this.mark = mark;
    if (wasLegacy) for (let k = 0; k < keys.length; k++) this.tryDelete(this.legacy, keys[k]);
  }

  private tryGet(domain: string, key: string): PreferenceValue | undefined {
    try {
      return this.prefs.get(domain, key);
    } catch {
      return undefined; // an unreadable entry is as good as none
    }
  }

  private tryDelete(domain: string, key: string): void {
    try { this.prefs.delete(domain, key); } catch { /* absent */ }
  }
}
Object.freeze(SavedBanks.prototype);
