// What a module announces by multicast DNS / DNS-SD (docs/lab.md), shared by the
// simulator (host-sim/announce.ts) and the module (src/device/announce.ts): its host name
// ({hostname}.local, from ethernet/0/hostname, else brainstem-{serial in 8 lowercase hex digits}),
// the two service types, and the TXT record. Nothing secret: `auth` says only whether a token is set.

import { hostnameOf } from './access/host-check';
import { serialText } from './route/serial';
import type { ModuleHal } from '../../hal/types';

/** The service types announced on the REST port, as Moddable's mdns module names them. */
export const SERVICE_TYPES: readonly string[] = Object.freeze(['http', 'brainstem']);
export const API_ROOT = '/api/v1';

/** brainstem-1234abcd */
export function defaultHostname(serial: number): string {
  const hex = (serial >>> 0).toString(16);
  return 'brainstem-' + '00000000'.slice(hex.length) + hex;
}

/** A DNS label (RFC 1123): letters, digits and hyphens, 1 to 63 bytes, no hyphen at either end. */
function isLabel(bytes: Uint8Array, n: number): boolean {
  if (n === 0 || n > 63 || bytes[0] === 45 || bytes[n - 1] === 45) return false;
  for (let i = 0; i < n; i++) {
    const c = bytes[i] | 32;
    if (!((c >= 97 && c <= 122) || (bytes[i] >= 48 && bytes[i] <= 57) || bytes[i] === 45)) return false;
  }
  return true;
}

/**
 * The DNS label the module announces itself as ({label}.local): ethernet/0/hostname up to its first
 * NUL (a setting kept in a fixed buffer is padded with them) when that is a DNS label, else the default.
 */
export function announcedHostname(d: ModuleHal): string {
  const bytes = hostnameOf(d);
  let n = 0;
  while (bytes && n < bytes.length && bytes[n] !== 0) n++;
  if (!bytes || !isLabel(bytes, n)) return defaultHostname(d.serialNumber);
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(bytes[i]);
  return s;
}

function readInt(d: ModuleHal, op: 'version' | 'model'): number {
  const system = d.entities.system;
  if (!system || !system.supports(op)) return 0;
  const v = system.get(0, op, []);
  return typeof v === 'number' ? v >>> 0 : 0;
}

/** The TXT record: serial=0x…, model=, fw=major.minor.patch (of system/0/version), api=, auth=none|token. */
export function announcementTxt(d: ModuleHal, tokenSet: boolean): { [key: string]: string } {
  const v = readInt(d, 'version');
  return {
    serial: serialText(d.serialNumber),
    model: '' + readInt(d, 'model'),
    fw: (v >>> 28) + '.' + ((v >>> 24) & 0xf) + '.' + (v & 0xffffff),
    api: API_ROOT,
    auth: tokenSet ? 'token' : 'none',
  };
}
