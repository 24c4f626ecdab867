// Which Host headers name this server (docs/api.md §Access control, DNS rebinding): an IP literal,
// `localhost`, a module's hostname (ethernet/0/hostname, also with `.local`) or a name the operator
// allowed. A rebinding page reaches us under the attacker's own name, which none of these is.
// Everything compares in place: no string is made per request.

import type { ModuleHal } from '../../../hal/types';

/** The end of the name part of a Host value (before `:port`), or -1 when the port is malformed. */
function nameEnd(host: string): number {
  const colon = host.lastIndexOf(':');
  if (colon < 0) return host.length;
  for (let i = colon + 1; i < host.length; i++) {
    const c = host.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
  }
  return colon;
}

/** Four dotted decimal parts 0..255 (browsers canonicalise 2130706433 and 0x7f.1 to this form). */
function isIpv4(host: string, end: number): boolean {
  let parts = 0;
  let value = -1;
  for (let i = 0; i <= end; i++) {
    const c = i === end ? 46 : host.charCodeAt(i);
    if (c === 46) {
      if (value < 0 || ++parts > 4) return false;
      value = -1;
    } else if (c >= 48 && c <= 57) {
      value = value < 0 ? c - 48 : value * 10 + c - 48;
      if (value > 255) return false;
    } else {
      return false;
    }
  }
  return parts === 4;
}

/** `[v6]` with an optional port: hex digits, colons and dots (an embedded v4) inside the brackets. */
function isIpv6(host: string): boolean {
  const close = host.indexOf(']');
  if (host.charCodeAt(0) !== 91 || close < 3) return false;
  for (let i = 1; i < close; i++) {
    const c = host.charCodeAt(i) | 32;
    if (!((c >= 48 && c <= 58) || (c >= 97 && c <= 102) || c === 46)) return false;
  }
  return close === host.length - 1 || (host.charCodeAt(close + 1) === 58 && nameEnd(host) === close + 1);
}

/** host[0, end) equals `name` in any ASCII case (`name` is lower case). */
export function sameName(host: string, end: number, name: string): boolean {
  if (end !== name.length) return false;
  for (let i = 0; i < end; i++) {
    let c = host.charCodeAt(i);
    if (c >= 65 && c <= 90) c += 32;
    if (c !== name.charCodeAt(i)) return false;
  }
  return true;
}

/** host[0, end) equals the bytes of a hostname, optionally followed by `.local`, in any ASCII case. */
function sameHostname(host: string, end: number, bytes: Uint8Array): boolean {
  const n = bytes.length;
  if (n === 0 || (end !== n && !(end === n + 6 && sameName(host.slice(n, end), 6, '.local')))) return false;
  for (let i = 0; i < n; i++) {
    let a = host.charCodeAt(i);
    let b = bytes[i];
    if (a >= 65 && a <= 90) a += 32;
    if (b >= 65 && b <= 90) b += 32;
    if (a !== b) return false;
  }
  return true;
}

export function hostnameOf(d: ModuleHal): Uint8Array | null {
  const ethernet = d.entities.ethernet;
  if (!ethernet || !ethernet.supports('hostname')) return null;
  try {
    const v = ethernet.get(0, 'hostname', []);
    return v instanceof Uint8Array ? v : null;
  } catch {
    return null;
  }
}

/** What a Host header is to this server (hostStanding). */
export const HOST_REFUSED = 0;
/** Allowed whatever the devices' state: no Host, an IP literal, localhost, an operator's name. */
export const HOST_ALWAYS = 1;
/** Allowed as a module's hostname, which a PUT may change. */
export const HOST_HOSTNAME = 2;

/** host[0, end) is `name` (lower case, not empty) or `name.local`, in any ASCII case. */
function sameAnnounced(host: string, end: number, name: string): boolean {
  const n = name.length;
  if (n === 0) return false;
  if (end === n + 6) return sameName(host.slice(0, n), n, name) && sameName(host.slice(n, end), 6, '.local');
  return sameName(host, end, name);
}

/**
 * Whether `host` (the Host header, '' when absent) names this server, and why (HOST_*). No Host at
 * all is an HTTP/1.0 client, not a browser: allowed. `allowed` holds lower-case names; `announced`
 * the lower-case names the modules announced by DNS-SD (a renamed module's `…-2` among them).
 */
export function hostStanding(host: string, allowed: readonly string[], devices: readonly ModuleHal[],
  announced: readonly string[] = []): number {
  if (host === '') return HOST_ALWAYS;
  if (host.charCodeAt(0) === 91) return isIpv6(host) ? HOST_ALWAYS : HOST_REFUSED;
  const end = nameEnd(host);
  if (end <= 0) return HOST_REFUSED;
  if (isIpv4(host, end) || sameName(host, end, 'localhost')) return HOST_ALWAYS;
  for (let i = 0; i < allowed.length; i++) if (sameName(host, end, allowed[i])) return HOST_ALWAYS;
  for (let i = 0; i < devices.length; i++) {
    const bytes = hostnameOf(devices[i]);
    if (bytes && sameHostname(host, end, bytes)) return HOST_HOSTNAME;
  }
  for (let i = 0; i < announced.length; i++) if (sameAnnounced(host, end, announced[i])) return HOST_HOSTNAME;
  return HOST_REFUSED;
}

