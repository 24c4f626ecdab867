// BrainD's own top-level names, answered by the host server so that clients written for Acroname's
// host server find what they ask for (docs/lab.md §BrainD's names): GET /api/v1/acronameDevices,
// GET /api/v1/acronameDevicesState (its `sequence` counting up on each answer) and GET /api/v1/version.
// Each module online is listed; its firmware version is what it answers at system/0/version, read
// again at most every VERSION_MAX_AGE_MS whatever the clients' polling rate.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './repo-root';
import { serialText } from '../src/api/route/serial';
import type { TimestampClock } from '../src/api/values/envelope';
import { PROBE_TIMEOUT_MS } from './link';
import { tokenFor } from './tokens';
import type { Registry, Found } from './registry';

export const ACRONAME_DEVICES_PATH = '/api/v1/acronameDevices';
export const ACRONAME_STATE_PATH = '/api/v1/acronameDevicesState';
export const VERSION_PATH = '/api/v1/version';
/** A module's firmware version is read again once the last reading is this old. */
export const VERSION_MAX_AGE_MS = 10_000;

export interface Version {
  major: number;
  minor: number;
  patch: number;
}

/** major.minor.patch packed as system/0/version answers it: 4 bits, 4 bits, 24 bits (hal/kit/version.ts). */
export function unpackVersion(v: number): Version {
  return { major: v >>> 28, minor: (v >>> 24) & 0xf, patch: v & 0xffffff };
}

/** The host server's own version: the project's (package.json), read once. */
let own: Version | null = null;
export function serverVersion(): Version {
  if (own) return own;
  const root = repoRoot();
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(String(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version));
  own = m ? { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) } : { major: 0, minor: 0, patch: 0 };
  return own;
}

export class BrainD {
  private sequence = 0;
  private readonly versions = new Map<string, { version: Version | null; at: number }>();

  constructor(private readonly registry: Registry, private readonly tokens: ReadonlyMap<number | '*', string>) {}

  /** The `response` of GET /api/v1/acronameDevices. */
  devices(): string {
    return JSON.stringify({ acronameDevices: this.registry.online().map(({ entry }) => ({
      type: 'NETWORK', serialNumber: serialText(entry.serial), module: entry.module, model: entry.model,
    })) });
  }

  /** The timestamp and `response` of GET /api/v1/acronameDevicesState, once the versions are read. */
  async state(clock: TimestampClock): Promise<[string, string]> {
    const rows = this.registry.online();
    const versions = await Promise.all(rows.map((r) => this.firmware(r)));
    this.sequence++;
    const timestamp = clock.format(Date.now());
    return [timestamp, JSON.stringify({
      timestamp, sequence: this.sequence, brainstemVersion: serverVersion(),
      acronameDevices: rows.map(({ link, entry }, i) => ({
        type: 'NETWORK', serialNumber: serialText(entry.serial), firmwareVersion: versions[i], model: entry.model,
        module: entry.module, address: link.address, lastSeen: link.lastSeen ? new Date(link.lastSeen).toISOString() : null,
      })),
    })];
  }

  /** What module `found` answers at system/0/version (null when it does not), at most VERSION_MAX_AGE_MS old. */
  private async firmware({ link, entry }: Found): Promise<Version | null> {
    const serial = serialText(entry.serial);
    const key = link.origin + ' ' + serial;
    const known = this.versions.get(key);
    if (known && known.version && Date.now() - known.at < VERSION_MAX_AGE_MS) return known.version;
    const token = tokenFor(this.tokens, entry.serial);
    const o = await link.sendWithToken(token, { method: 'GET', path: `/api/v1/device/${serial}/system/0/version`, headers: {}, body: null },
      false, PROBE_TIMEOUT_MS);
    let version: Version | null = null;
    if (o.kind === 'answer' && o.status === 200) {
      try {
        const r = JSON.parse(o.body.toString('utf8')).response;
        const v = r?.rawValue ?? r?.value;
        if (Number.isInteger(v) && v >= 0 && v <= 0xffffffff) version = unpackVersion(v);
      } catch { /* not JSON: no version */ }
    }
    this.versions.set(key, { version, at: Date.now() });
    return version;
  }
}
