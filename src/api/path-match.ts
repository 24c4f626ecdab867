// The path matcher: /api/v1/{device|brainstem}[/{serial}][/{entity}[/{index}]/{operation}[/{param}...]]
// resolved left to right into a device, an entity, an index and the operation's forms that take
// as many path parameters as were given (DECISIONS.md §Addresses). No regexes: one split, then
// small hand-written scans.

import {
  ApiError, aErrIndexRange, aErrInvalidEntity, aErrInvalidOption, aErrNotFound, aErrUnimplemented,
} from '../../hal/kit/errors';
import { isEntity, routeForms, UNSUPPORTED_ENTITIES, type Route } from './routes';
import type { EntityHal, ModuleHal } from '../../hal/types';

export const PREFIX = '/api/v1/';

export const MATCH_DEVICES = 0;
export const MATCH_DEVICE = 1;
export const MATCH_ROUTE = 2;

export interface PathMatch {
  kind: number; // MATCH_*
  device: ModuleHal | null;
  entity: string;
  hal: EntityHal | null;
  index: number;
  op: string;
  /** The operation's forms taking exactly `params.length` path parameters (one or two). */
  forms: readonly Route[];
  /** The extra path parameters as sent, not yet checked. */
  params: string[];
}

function isHexDigit(c: number): boolean {
  return (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 102);
}

/** The serial a segment names (8 hex digits at most, 0x optional), or -1 if it is not hex. */
export function parseSerial(segment: string): number {
  let i = segment.length > 2 && segment.charCodeAt(0) === 48 && (segment.charCodeAt(1) | 32) === 120 ? 2 : 0;
  if (i === segment.length) return -1;
  let v = 0;
  for (; i < segment.length; i++) {
    const c = segment.charCodeAt(i);
    if (!isHexDigit(c)) return -1;
    v = v * 16 + (c <= 57 ? c - 48 : (c | 32) - 87);
  }
  return v;
}

/** An index: decimal digits, no sign, no leading zero; -1 if the segment is not one. */
function parseIndex(segment: string): number {
  const n = segment.length;
  if (n === 0 || (n > 1 && segment.charCodeAt(0) === 48)) return -1;
  let v = 0;
  for (let i = 0; i < n; i++) {
    const d = segment.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

export function serialText(serial: number): string {
  const hex = (serial >>> 0).toString(16).toUpperCase();
  return '0x' + '00000000'.slice(hex.length) + hex;
}

/**
 * Resolve a path (query already removed). Answers an ApiError (404...) for what names nothing, 501
 * for the entities the spec lists as unsupported: returned, not thrown, because a miss is an
 * everyday answer and a throw costs more than the whole match. With one device the serial may be
 * left out; a host-side server with several devices requires it.
 */
export function matchPath(path: string, devices: readonly ModuleHal[]): PathMatch | ApiError {
  const seg = path.split('/');
  if (seg.length < 4 || seg[1] !== 'api' || seg[2] !== 'v1') {
    return new ApiError(aErrNotFound, `no resource at ${path}; start at /api/v1 (the API index)`);
  }
  // seg[0] is '' (the leading slash); any other empty segment is not a resource.
  for (let i = 1; i < seg.length; i++) {
    if (seg[i] === '') return new ApiError(aErrNotFound, `no resource at ${path}: empty path segment`);
  }
  const root = seg[3].toLowerCase();
  if (root !== 'device' && root !== 'brainstem') {
    return new ApiError(aErrNotFound, `no resource at ${path}; start at /api/v1 (the API index)`);
  }
  const match: PathMatch = {
    kind: MATCH_DEVICES, device: null, entity: '', hal: null, index: 0, op: '', forms: [], params: [],
  };
  if (seg.length === 4) return match;

  let i = 4;
  let name = seg[i].toLowerCase();
  if (!isEntity(name)) {
    const serial = parseSerial(seg[i]);
    if (serial < 0) return new ApiError(aErrInvalidEntity, `unknown entity '${seg[i]}'`);
    const digits = seg[i].length - (seg[i].charCodeAt(1) === 120 || seg[i].charCodeAt(1) === 88 ? 2 : 0);
    for (const d of devices) if (digits <= 8 && d.serialNumber === serial) match.device = d;
    if (!match.device) return new ApiError(aErrNotFound, `no device with serial number ${seg[i]} on this server`);
    match.kind = MATCH_DEVICE;
    if (++i === seg.length) return match;
    name = seg[i].toLowerCase();
    if (!isEntity(name)) return new ApiError(aErrInvalidEntity, `unknown entity '${seg[i]}'`);
  } else {
    if (devices.length !== 1) {
      return new ApiError(aErrNotFound, `this server reaches ${devices.length} devices: put the serial number in the path, /api/v1/device/{serial}/${seg[i]}/...`);
    }
    match.device = devices[0];
  }

  if (UNSUPPORTED_ENTITIES.indexOf(name) >= 0) {
    return new ApiError(aErrUnimplemented, `entity '${name}' is not supported`);
  }
  const hal = (match.device!.entities as { readonly [name: string]: EntityHal | undefined })[name];
  if (!hal) return new ApiError(aErrInvalidEntity, `this module has no ${name} entity`);
  match.kind = MATCH_ROUTE;
  match.entity = name;
  match.hal = hal;

  if (++i === seg.length) return new ApiError(aErrInvalidOption, `missing operation after ${name}`);
  const index = parseIndex(seg[i]);
  if (index >= 0) {
    if (index >= hal.count) {
      return new ApiError(aErrIndexRange, `${name} index ${seg[i]} out of range 0..${hal.count - 1}`);
    }
    match.index = index;
    if (++i === seg.length) return new ApiError(aErrInvalidOption, `missing operation after ${name}/${index}`);
  }

  const op = seg[i].toLowerCase();
  const all = routeForms(name, op);
  if (!all) return new ApiError(aErrInvalidOption, `unknown operation '${seg[i]}' of ${name}`);
  match.op = op;
  const given = seg.length - i - 1;
  let forms: Route[] | null = null;
  for (const r of all) {
    if (r.params.length === given) (forms ??= []).push(r);
  }
  if (!forms) return new ApiError(aErrInvalidOption, `${name}/${op} takes ${paramShapes(all)}; got ${given} path parameter${given === 1 ? '' : 's'}`);
  match.forms = forms;
  match.params = seg.slice(i + 1);
  return match;
}

function paramShapes(forms: readonly Route[]): string {
  const shapes: string[] = [];
  for (const r of forms) {
    const shape = r.params.length === 0 ? 'no path parameters' : r.params.map((p) => '{' + p.name + '}').join('/');
    if (shapes.indexOf(shape) < 0) shapes.push(shape);
  }
  return shapes.join(' or ');
}
