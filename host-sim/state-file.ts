// The simulated modules' flash on disk: one JSON file holding the saved state (settings, persistent
// store slots) of one or more modules, keyed by serial number. Each module gets a SimStorage view of
// its entry; every save rewrites the whole file atomically (atomic-write.ts). A file that cannot be
// read or parsed is reported once and treated as empty, and left untouched until the first save,
// which first copies it aside (<file>.corrupt) so nothing is lost silently.

import * as fs from 'node:fs';
import type { SimStorage } from '../hal/sim/index';
import { serialText } from '../src/api/route/serial';
import { removeStaleTemps, writeFileAtomic, type AtomicWriteHooks } from './atomic-write';

export const STATE_FORMAT = 'device-rest-sim-state';
export const STATE_VERSION = 1;

/** What the file holds for one module: its Persist document plus who wrote it and when. */
interface Entry {
  profile: string;
  model: number;
  savedAt: string;
  state: unknown;
}

interface FileDoc {
  format: string;
  version: number;
  devices: { [serial: string]: Entry };
}

export type Warn = (message: string) => void;

export class StateFile {
  private doc: FileDoc = { format: STATE_FORMAT, version: STATE_VERSION, devices: {} };
  /** The file was there but unusable: keep a copy before the first save replaces it. */
  private corrupt = false;

  constructor(
    readonly path: string,
    private readonly warn: Warn = (m) => console.error(m),
    private readonly hooks: AtomicWriteHooks = {},
  ) {
    removeStaleTemps(path);
    this.read();
  }

  /** The SimStorage of one module. `profile`/`model` are recorded to explain a later mismatch. */
  storageFor(serial: number, profile: string, model: number): SimStorage {
    const key = serialText(serial);
    const entry = this.doc.devices[key];
    if (entry && entry.profile !== profile) {
      this.warn(`state file ${this.path}: ${key} was saved as profile '${entry.profile}', now '${profile}'; ` +
        'settings of entities this profile lacks are ignored');
    }
    return {
      load: () => {
        const e = this.doc.devices[key];
        return e === undefined ? undefined : JSON.stringify(e.state);
      },
      save: (text: string) => {
        this.doc.devices[key] = { profile, model, savedAt: new Date().toISOString(), state: JSON.parse(text) };
        this.write();
      },
    };
  }

  private read(): void {
    let text: string;
    try {
      text = fs.readFileSync(this.path, 'utf8');
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      if (err.code === 'ENOENT') return; // a module that never saved: factory settings, no message
      this.corrupt = err.code !== 'EACCES' && err.code !== 'EPERM'; // unreadable: the copy would fail too
      this.warn(`state file ${this.path} cannot be read (${err.code ?? err.message}): starting with factory settings`);
      return;
    }
    const problem = this.parse(text);
    if (problem) {
      this.corrupt = true;
      this.warn(`state file ${this.path} is corrupt (${problem}): starting with factory settings; ` +
        `the file is kept as it is until the next save, which copies it to ${this.path}.corrupt`);
    }
  }

  /** Adopts the document if it is one; otherwise says what is wrong with it. */
  private parse(text: string): string | null {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      return (e as Error).message;
    }
    const d = parsed as Partial<FileDoc> | null;
    if (!d || typeof d !== 'object' || d.format !== STATE_FORMAT) return `not a ${STATE_FORMAT} file`;
    if (d.version !== STATE_VERSION) return `version ${String(d.version)}, this simulator reads ${STATE_VERSION}`;
    if (!d.devices || typeof d.devices !== 'object' || Array.isArray(d.devices)) return 'no devices object';
    for (const key of Object.keys(d.devices)) {
      const e = d.devices[key] as Partial<Entry> | null;
      if (!e || typeof e !== 'object' || !e.state || typeof e.state !== 'object') return `entry ${key} has no state`;
    }
    this.doc = d as FileDoc;
    return null;
  }

  private write(): void {
    if (this.corrupt) {
      try {
        fs.copyFileSync(this.path, this.path + '.corrupt');
        this.warn(`state file ${this.path}: the corrupt file was copied to ${this.path}.corrupt`);
      } catch { /* gone meanwhile: nothing to keep */ }
      this.corrupt = false;
    }
    try {
      writeFileAtomic(this.path, JSON.stringify(this.doc) + '\n', this.hooks);
    } catch (e) {
      // The module flags it too (system/errors, storage bit); say here where and why.
      this.warn(`state file ${this.path} could not be written: ${(e as Error).message}`);
      throw e;
    }
  }
}
