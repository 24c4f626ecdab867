// A module's access-control settings (docs/api.md §Access control) from three places, later ones
// winning: the manifest's `config.http` ({token, tokenReads, auth, allowHosts, cors}), mcconfig arguments
// (`token=… auth=digest allowHosts=a,b cors=http://x,http://y tokenReads=true`: top-level config strings), and
// saved settings (Preference domain ACCESS_DOMAIN, keys in ACCESS_KEYS, strings). Pure, so it is
// tested under Node; src/device/app.ts hands it the config and a reader of saved settings.

import type { AccessOptions } from './access';

/** Preference domain and keys (NVS: at most 15 characters each) of the saved access settings. */
export const ACCESS_DOMAIN = 'access';
export const ACCESS_KEYS = Object.freeze({ token: 'token', tokenReads: 'reads', auth: 'auth', allowHosts: 'hosts', cors: 'cors' });

type Source = { readonly [key: string]: unknown };

/** A list from an array of strings or a comma-separated string. */
function list(v: unknown): string[] | undefined {
  if (typeof v === 'string') {
    const out: string[] = [];
    for (const part of v.split(',')) if (part.trim() !== '') out.push(part.trim());
    return out;
  }
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string' && x !== '');
  return undefined;
}

function flag(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string' && v !== '') return v === '1' || v.toLowerCase() === 'true';
  return undefined;
}

function text(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** Merge one source over `out`; `names` maps our option names to the source's keys. */
function merge(out: AccessOptions, source: Source, names: { readonly [K in keyof typeof ACCESS_KEYS]: string }): AccessOptions {
  return {
    token: text(source[names.token]) ?? out.token,
    tokenReads: flag(source[names.tokenReads]) ?? out.tokenReads,
    auth: text(source[names.auth]) || out.auth,
    allowHosts: list(source[names.allowHosts]) ?? out.allowHosts,
    cors: list(source[names.cors]) ?? out.cors,
  };
}

const CONFIG_NAMES = Object.freeze({ token: 'token', tokenReads: 'tokenReads', auth: 'auth', allowHosts: 'allowHosts', cors: 'cors' });

/**
 * `http`: the manifest's config.http; `top`: the whole config (mcconfig `name=value` arguments land
 * there as strings); `saved(key)`: a saved setting or undefined.
 */
export function accessFromConfig(http: Source, top: Source, saved: (key: string) => unknown): AccessOptions {
  let out: AccessOptions = { token: '', tokenReads: false, auth: 'any', allowHosts: [], cors: [] };
  // A manifest written before CORS became a list had `cors: false`: that is "off", not an origin.
  out = merge(out, http, CONFIG_NAMES);
  out = merge(out, top, CONFIG_NAMES);
  const stored: { [key: string]: unknown } = {};
  for (const k of [ACCESS_KEYS.token, ACCESS_KEYS.tokenReads, ACCESS_KEYS.auth, ACCESS_KEYS.allowHosts, ACCESS_KEYS.cors]) stored[k] = saved(k);
  return merge(out, stored, ACCESS_KEYS);
}
