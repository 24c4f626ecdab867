// The path parser: /api/v1/{device|brainstem}[/{serial}][/{entity}[/{index}]/{operation}[/{param}...]]
// read left to right into an Address (docs/api.md §Addresses). Pure: a string and the static tables
// in (forms.ts), an Address out; no devices, no HAL (resolve.ts looks those up). A fault of form is
// not thrown nor returned alone: the Address records it with where it lies, and resolve reports the
// first fault along the path, form or substance (a serial that names no device comes before an unknown
// entity after it; an index beyond the instances before an unknown operation).
// No split and no regexes: indexOf finds each segment's end and only the entity and the operation
// are sliced out (on Node a split costs twice the whole scan; the path's segments are split only
// for a message or a path parameter). A segment is lower-cased only when the table does not know
// it as sent (entity and operation names match in any case).

import { ApiError, aErrIndexRange, aErrInvalidEntity, aErrInvalidOption, aErrNotFound, aErrUnimplemented } from '../../../hal/kit/errors';
import { ENTITY_FORMS, ENTITY_KEYS, OPERATION_KEYS, UNSUPPORTED, type EntityForms, type Forms } from '../values/forms';
import { findKey, findName } from '../../../util/known-key';
import { ENTITY_NAMES, routeForms, type Route } from './routes';
import { hexPrefix, parseSerial } from './serial';
import { deepFreeze } from '../../../util/freeze';

/** What an Address names: the device list, one device (its description), or an operation. */
export const ADDRESS_DEVICES = 0;
export const ADDRESS_DEVICE = 1;
export const ADDRESS_ROUTE = 2;

/**
 * Where a fault of form lies (Address.missAt), which says what resolve checks before reporting it:
 * MISS_PATH nothing (prefix, root, a first segment that is neither entity nor serial); MISS_ENTITY the
 * device (the entity after a serial, an unsupported entity); MISS_OPERATION the device, the entity's
 * HAL and the index (a missing or unknown operation, a wrong count of path parameters).
 */
export const MISS_NONE = 0;
export const MISS_PATH = 1;
export const MISS_ENTITY = 2;
export const MISS_OPERATION = 3;

/** Address.serial when the path names no serial number (one device: it may be left out). */
export const NO_SERIAL = -1;
/** Address.serial for a hex segment longer than 8 digits: above every u32, so it names no device. */
export const TOO_LONG_SERIAL = 0x100000000;
/** Address.index when the path has no index segment (the operation's index is then 0). */
export const NO_INDEX = -1;

/** Address.segments when it holds no path (the Api lets go of a request's path after it). */
export const NO_SEGMENTS: readonly string[] = deepFreeze<string[]>([]);

/** A parsed path. One is reused per Api (filled in place): nothing is allocated for it per request. */
export class Address {
  kind = ADDRESS_DEVICES;
  /** The serial number the path names, NO_SERIAL or TOO_LONG_SERIAL. */
  serial = NO_SERIAL;
  /** The entity, lower case ('' when none). */
  entity = '';
  index = NO_INDEX;
  /** The operation, lower case. */
  op = '';
  /** The operation's forms taking as many path parameters as the path gives (ADDRESS_ROUTE only). */
  forms: Forms | null = null;
  /** The path as sent ('' when it is not under /api/v1/{root}), kept for the texts below: they are
   * split out of it only when a message or a path parameter needs them. */
  path = '';
  /** The first fault of form (404, or 501 for an unsupported entity) and where it lies (MISS_*). */
  miss: ApiError | null = null;
  missAt = MISS_NONE;

  /** The path's segments as sent ([0] is ''), split on demand. */
  get segments(): readonly string[] {
    return this.path === '' ? NO_SEGMENTS : this.path.split('/');
  }

  /** The serial segment as sent ('' when none). */
  get serialText(): string {
    return this.serial === NO_SERIAL ? '' : this.segments[4];
  }

  /** The entity segment as sent ('' when none). */
  get entityText(): string {
    return this.entity === '' ? '' : this.segments[this.serial === NO_SERIAL ? 4 : 5];
  }

  /** Where the extra path parameters start in `segments`. */
  get paramAt(): number {
    return (this.serial === NO_SERIAL ? 6 : 7) + (this.index === NO_INDEX ? 0 : 1);
  }

  clear(path: string): this {
    this.kind = ADDRESS_DEVICES;
    this.serial = NO_SERIAL;
    this.entity = '';
    this.index = NO_INDEX;
    this.op = '';
    this.forms = null;
    this.path = path;
    this.miss = null;
    this.missAt = MISS_NONE;
    return this;
  }

  /** Record the fault `miss` at `at` (MISS_*): the parse stops there. */
  fail(at: number, miss: ApiError): this {
    this.miss = miss;
    this.missAt = at;
    return this;
  }
}
Object.freeze(Address.prototype);

/**
 * Parse `path` (query already removed) into `out`, a fault of form included. An empty segment is a
 * fault that comes before any other but the prefix's; it is not searched for up front: the scan
 * meets every segment but the parameters, which countSegments checks, and a miss (miss()) looks for
 * one before it reports its own fault.
 */
export function parsePath(path: string, out: Address = new Address()): Address {
  // Nearly every path starts so: one call checks the prefix and the root (indexOf: on Node a
  // startsWith costs twice as much).
  const usual = path.indexOf('/api/v1/device/') === 0;
  if (!usual && path.indexOf('/api/v1/') !== 0) return out.clear('').fail(MISS_PATH, notUnderApi(path));
  if (path.charCodeAt(path.length - 1) === 47) return emptySegment(path, out);
  const end = usual ? 14 : segmentEnd(path, 8);
  if (!usual && !isRoot(path, end)) return miss(path, out.clear(''), MISS_PATH, notUnderApi(path));
  return parseEntity(path, end, out.clear(path));
}

/** The segments after the root (which ends at `end`): [serial/]entity[/index]/operation[/param...]. */
function parseEntity(path: string, end: number, out: Address): Address {
  const n = path.length;
  if (end === n) return out;
  let at = end + 1;
  // Each segment's end found inline (under XS a call costs more than the indexOf itself).
  if ((end = path.indexOf('/', at)) < 0) end = n;
  let text = path.slice(at, end);
  // Found by comparison, never used as a key itself (util/known-key.ts): each new key costs a slot for good.
  let name = findName(ENTITY_KEYS, text);
  if (name === undefined) {
    const serial = parseSerial(text);
    if (serial < 0) return miss(path, out, MISS_PATH, new ApiError(aErrInvalidEntity, `unknown entity '${path.slice(at, end)}'`));
    out.kind = ADDRESS_DEVICE;
    out.serial = text.length - hexPrefix(text) > 8 ? TOO_LONG_SERIAL : serial;
    if (end === n) return out;
    if ((end = path.indexOf('/', at = end + 1)) < 0) end = n;
    text = path.slice(at, end);
    name = findName(ENTITY_KEYS, text);
    if (name === undefined) return miss(path, out, MISS_ENTITY, new ApiError(aErrInvalidEntity, `unknown entity '${path.slice(at, end)}'`));
  }
  const ops = ENTITY_FORMS[name]!;
  out.kind = ADDRESS_ROUTE;
  out.entity = name;
  if (ops === UNSUPPORTED) return miss(path, out, MISS_ENTITY, new ApiError(aErrUnimplemented, `entity '${entityName(name)}' is not supported`));
  if (end === n) return out.fail(MISS_OPERATION, new ApiError(aErrInvalidOption, `missing operation after ${entityName(name)}`));
  if ((end = path.indexOf('/', at = end + 1)) < 0) end = n;
  const index = parseIndex(path, at, end);
  if (index >= 0) {
    out.index = index;
    if (end === n) return out.fail(MISS_OPERATION, new ApiError(aErrInvalidOption, `missing operation after ${entityName(name)}/${index}`));
    if ((end = path.indexOf('/', at = end + 1)) < 0) end = n;
  }
  return parseOperation(path, at, end, countSegments(path, end), ops, out);
}

/** Where the segment starting at `at` ends (the next '/', or the path's end). */
function segmentEnd(path: string, at: number): number {
  const end = path.indexOf('/', at);
  return end < 0 ? path.length : end;
}

/** How many segments follow `end`, or -1 when one of them is empty. */
function countSegments(path: string, end: number): number {
  let count = 0;
  for (let i = path.indexOf('/', end), last = -2; i >= 0; last = i, i = path.indexOf('/', i + 1)) {
    if (i === last + 1) return -1;
    count++;
  }
  return count;
}

/** The operation from `at` to `end` (one of `ops`) and its forms taking `given` path parameters (-1: an empty one). */
function parseOperation(path: string, at: number, end: number, given: number, ops: EntityForms, out: Address): Address {
  const op = findName(OPERATION_KEYS[out.entity]!, path.slice(at, end));
  const lists = op === undefined ? undefined : ops[op];
  if (!lists) {
    const entity = entityName(out.entity);
    return miss(path, out, MISS_OPERATION, out.index === NO_INDEX ? unknownOperation(path, at, end, OPERATION_KEYS[out.entity]!, entity)
      : new ApiError(aErrInvalidOption, `unknown operation '${path.slice(at, end)}' of ${entity}`));
  }
  const forms = given >= 0 && given < lists.length ? lists[given] : null;
  if (!forms) {
    const entity = entityName(out.entity);
    const name = firstRoute(lists).op;
    return miss(path, out, MISS_OPERATION, new ApiError(aErrInvalidOption,
      `${entity}/${name} takes ${paramShapes(routeForms(entity, name)!)}; got ${given} path parameter${given === 1 ? '' : 's'}`));
  }
  // The table's own strings, not the ones cut from the path: the HAL's lookups of them (supports,
  // limits, get, set) are then by identity on Node, where a cut string is compared by content.
  const route = forms.routes[0];
  out.entity = route.entity;
  out.op = route.op;
  out.forms = forms;
  return out;
}

/**
 * The segment after the entity names no operation. Where an index stands (it starts with a digit or
 * a sign, or an operation follows it: `rail/-1/voltage`, `rail/01/voltage`, `rail/x/voltage`), it is
 * an index that is not one: 404 aErrIndexRange naming it.
 */
function unknownOperation(path: string, at: number, end: number, operations: ReadonlyMap<string, string>, entity: string): ApiError {
  const c = path.charCodeAt(at);
  const next = end < path.length ? path.slice(end + 1, segmentEnd(path, end + 1)).toLowerCase() : '';
  if ((c >= 48 && c <= 57) || c === 43 || c === 45 || (next && findKey(operations, next) !== undefined)) {
    return new ApiError(aErrIndexRange, `'${path.slice(at, end)}' is not an index of ${entity}: an index is a decimal integer (0, 1, 2 ...) without sign or leading zeros`);
  }
  return new ApiError(aErrInvalidOption, `unknown operation '${path.slice(at, end)}' of ${entity}`);
}

/** The first route of an operation's lists of forms (every operation has one). */
function firstRoute(lists: readonly (Forms | null)[]): Route {
  for (const f of lists) if (f) return f.routes[0];
  throw new Error('an operation without forms');
}

/**
 * An entity name the table knows, as the table's own string, for a message. A string cut from the
 * path and used as a table key becomes a V8 ThinString, which V8 11 (Node 20) concatenates into a
 * two-byte string: an error answer built from it cost twice as much to measure and to write. For
 * the same reason the texts as sent are cut anew from the path for a message.
 */
function entityName(name: string): string {
  const i = ENTITY_NAMES.indexOf(name);
  return i < 0 ? name : ENTITY_NAMES[i];
}

/** The fault `error` at `at` (MISS_*), unless the path has an empty segment: that fault comes first. */
function miss(path: string, out: Address, at: number, error: ApiError): Address {
  return path.indexOf('//') >= 0 ? emptySegment(path, out) : out.fail(at, error);
}

function emptySegment(path: string, out: Address): Address {
  return out.clear('').fail(MISS_PATH, new ApiError(aErrNotFound, `no resource at ${path}: empty path segment`));
}

function notUnderApi(path: string): ApiError {
  return new ApiError(aErrNotFound, `no resource at ${path}; start at /api/v1 (the API index)`);
}

/** Is the segment from 8 to `end` the root: device or brainstem, in any case? */
function isRoot(path: string, end: number): boolean {
  const lower = path.slice(8, end).toLowerCase();
  return lower === 'device' || lower === 'brainstem';
}

/** An index: the digits from `at` to `end`, no sign, no leading zero; -1 if they are not one. */
function parseIndex(path: string, at: number, end: number): number {
  if (end === at || (end - at > 1 && path.charCodeAt(at) === 48)) return -1;
  let v = 0;
  for (let i = at; i < end; i++) {
    const d = path.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

/** The path-parameter shapes of an operation's forms, for the message of a wrong count. */
function paramShapes(forms: readonly Route[]): string {
  const shapes: string[] = [];
  for (const r of forms) {
    let shape = r.params.length === 0 ? 'no path parameters' : '';
    for (let k = 0; k < r.params.length; k++) shape += (k ? '/{' : '{') + r.params[k].name + '}';
    if (shapes.indexOf(shape) < 0) shapes.push(shape);
  }
  return shapes.join(' or ');
}
