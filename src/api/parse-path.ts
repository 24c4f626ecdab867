// The path parser: /api/v1/{device|brainstem}[/{serial}][/{entity}[/{index}]/{operation}[/{param}...]]
// read left to right into an Address (DECISIONS.md §Addresses). Pure: a string and the static route
// table in, an Address or a miss out; no devices, no HAL (resolve.ts looks those up). A path with a
// fault of form and one of substance (a serial naming no device) reports the fault of form.
// No split and no regexes: one scan with indexOf; a segment is lower-cased only when the table does
// not know it as sent (entity and operation names match in any case).

import { ApiError, aErrInvalidEntity, aErrInvalidOption, aErrNotFound, aErrUnimplemented } from './errors';
import { formsByCount, MAX_PATH_PARAMS, routeForms, UNSUPPORTED_ENTITIES, type FormsByCount, type Route } from './routes';
import { hexPrefix, parseSerial } from './serial';
import { deepFreeze } from '../util/freeze';

/** What an Address names: the device list, one device (its description), or an operation. */
export const ADDRESS_DEVICES = 0;
export const ADDRESS_DEVICE = 1;
export const ADDRESS_ROUTE = 2;

/** Address.serial when the path names no serial number (one device: it may be left out). */
export const NO_SERIAL = -1;
/** Address.serial for a hex segment longer than 8 digits: above every u32, so it names no device. */
export const TOO_LONG_SERIAL = 0x100000000;
/** Address.index when the path has no index segment (the operation's index is then 0). */
export const NO_INDEX = -1;

const NO_FORMS: readonly Route[] = deepFreeze<Route[]>([]);
const PREFIX = '/api/v1/';
const DEVICE_ROOT = '/api/v1/device';

/** A parsed path. One is reused per Api (filled in place): nothing is allocated per request for it. */
export class Address {
  kind = ADDRESS_DEVICES;
  /** The serial number the path names, NO_SERIAL or TOO_LONG_SERIAL. */
  serial = NO_SERIAL;
  /** The serial segment as sent ('' when none), for messages. */
  serialText = '';
  /** The entity, lower case, and as sent. */
  entity = '';
  entityText = '';
  index = NO_INDEX;
  /** The operation, lower case. */
  op = '';
  /** The operation's forms taking as many path parameters as the path gives (never empty). */
  forms: readonly Route[] = NO_FORMS;
  /** The extra path parameters as sent, '/'-separated, not yet checked ('' when none). */
  params = '';

  clear(): this {
    this.kind = ADDRESS_DEVICES;
    this.serial = NO_SERIAL;
    this.serialText = '';
    this.entity = '';
    this.entityText = '';
    this.index = NO_INDEX;
    this.op = '';
    this.forms = NO_FORMS;
    this.params = '';
    return this;
  }
}
Object.freeze(Address.prototype);

/** Parse `path` (query already removed) into `out`, or answer the 404/501 miss it earns. */
export function parsePath(path: string, out: Address = new Address()): Address | ApiError {
  const n = path.length;
  if (!path.startsWith(PREFIX)) return notUnderApi(path);
  if (path.indexOf('//') >= 0 || path.charCodeAt(n - 1) === 47) {
    return new ApiError(aErrNotFound, `no resource at ${path}: empty path segment`);
  }
  let at = rootEnd(path);
  if (at < 0) return notUnderApi(path);
  if (at === n) return out.clear();
  let end = path.indexOf('/', ++at);
  if (end < 0) end = n;
  let text = path.slice(at, end);
  let name = text;
  let ops = formsByCount(name);
  if (!ops) ops = formsByCount(name = text.toLowerCase());
  out.serial = NO_SERIAL;
  out.serialText = '';
  if (!ops) {
    const serial = parseSerial(text);
    if (serial < 0) return new ApiError(aErrInvalidEntity, `unknown entity '${text}'`);
    if (end === n) {
      out.clear().kind = ADDRESS_DEVICE;
      out.serial = text.length - hexPrefix(text) > 8 ? TOO_LONG_SERIAL : serial;
      out.serialText = text;
      return out;
    }
    out.serial = text.length - hexPrefix(text) > 8 ? TOO_LONG_SERIAL : serial;
    out.serialText = text;
    at = end + 1;
    end = path.indexOf('/', at);
    if (end < 0) end = n;
    text = path.slice(at, end);
    ops = formsByCount(name = text);
    if (!ops) ops = formsByCount(name = text.toLowerCase());
    if (!ops) return new ApiError(aErrInvalidEntity, `unknown entity '${text}'`);
  }
  if (UNSUPPORTED_ENTITIES.indexOf(name) >= 0) return new ApiError(aErrUnimplemented, `entity '${name}' is not supported`);
  if (end === n) return new ApiError(aErrInvalidOption, `missing operation after ${name}`);
  out.entity = name;
  out.entityText = text;
  at = end + 1;
  end = path.indexOf('/', at);
  if (end < 0) end = n;
  out.index = indexAt(path, at, end);
  if (out.index >= 0) {
    if (end === n) return new ApiError(aErrInvalidOption, `missing operation after ${name}/${out.index}`);
    at = end + 1;
    end = path.indexOf('/', at);
    if (end < 0) end = n;
  }
  return parseOperation(path, at, end, ops, out);
}

/** The operation at path[at, end) (one of `ops`) and the parameters after it. */
function parseOperation(path: string, at: number, end: number, ops: FormsByCount, out: Address): Address | ApiError {
  const text = path.slice(at, end);
  let op = text;
  let lists = ops[op];
  if (!lists) lists = ops[op = text.toLowerCase()];
  if (!lists) return new ApiError(aErrInvalidOption, `unknown operation '${text}' of ${out.entity}`);
  let given = 0;
  for (let i = end; i >= 0 && i < path.length; i = path.indexOf('/', i + 1)) given++;
  const forms = given <= MAX_PATH_PARAMS ? lists[given] : NO_FORMS;
  if (forms.length === 0) {
    return new ApiError(aErrInvalidOption, `${out.entity}/${op} takes ${paramShapes(routeForms(out.entity, op)!)}; got ${given} path parameter${given === 1 ? '' : 's'}`);
  }
  out.kind = ADDRESS_ROUTE;
  out.op = op;
  out.forms = forms;
  out.params = given === 0 ? '' : path.slice(end + 1);
  return out;
}

function notUnderApi(path: string): ApiError {
  return new ApiError(aErrNotFound, `no resource at ${path}; start at /api/v1 (the API index)`);
}

/** Where the root segment after /api/v1/ (device or brainstem, any case) ends, or -1 for another root. */
function rootEnd(path: string): number {
  const fast = DEVICE_ROOT.length;
  if (path.startsWith(DEVICE_ROOT) && (path.length === fast || path.charCodeAt(fast) === 47)) return fast;
  let end = path.indexOf('/', PREFIX.length);
  if (end < 0) end = path.length;
  const root = path.slice(PREFIX.length, end).toLowerCase();
  return root === 'device' || root === 'brainstem' ? end : -1;
}

/** The index path[at, end) spells: decimal digits, no sign, no leading zero; -1 if it is not one. */
function indexAt(path: string, at: number, end: number): number {
  if (end - at > 1 && path.charCodeAt(at) === 48) return -1;
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
