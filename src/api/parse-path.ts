// The path parser: /api/v1/{device|brainstem}[/{serial}][/{entity}[/{index}]/{operation}[/{param}...]]
// read left to right into an Address (DECISIONS.md §Addresses). Pure: a string and the static tables
// in (forms.ts), an Address out; no devices, no HAL (resolve.ts looks those up). A fault of form is
// not thrown nor returned alone: the Address records it with where it lies, and resolve reports the
// first fault along the path, form or substance (a serial that names no device comes before an unknown
// entity after it; an index beyond the instances before an unknown operation).
// One split and no regexes (under XS a native call costs about as much as ten bytecodes, so one
// split beats scanning with indexOf); a segment is lower-cased only when the table does not know it
// as sent (entity and operation names match in any case).

import { ApiError, aErrInvalidEntity, aErrInvalidOption, aErrNotFound, aErrUnimplemented } from '../../hal/kit/errors';
import { ENTITY_FORMS, UNSUPPORTED, type EntityForms, type Forms } from './forms';
import { routeForms, type Route } from './routes';
import { hexPrefix, parseSerial } from './serial';
import { deepFreeze } from '../util/freeze';

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

/** Address.segments when it holds no path (the Api lets go of a request's segments after it). */
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
  /** The path's segments as sent ([0] is ''), kept for the texts below (under XS a field set costs
   * about six computrons a request; a getter costs only when a message needs it). */
  segments: readonly string[] = NO_SEGMENTS;
  /** The first fault of form (404, or 501 for an unsupported entity) and where it lies (MISS_*). */
  miss: ApiError | null = null;
  missAt = MISS_NONE;

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

  clear(segments: readonly string[]): this {
    this.kind = ADDRESS_DEVICES;
    this.serial = NO_SERIAL;
    this.entity = '';
    this.index = NO_INDEX;
    this.op = '';
    this.forms = null;
    this.segments = segments;
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

/** Parse `path` (query already removed) into `out`, a fault of form included. */
export function parsePath(path: string, out: Address = new Address()): Address {
  const seg = path.split('/');
  const n = seg.length;
  if (n < 4 || seg[0] !== '' || seg[1] !== 'api' || seg[2] !== 'v1') return out.clear(NO_SEGMENTS).fail(MISS_PATH, notUnderApi(path));
  if (seg[n - 1] === '' || path.indexOf('//') >= 0) {
    return out.clear(NO_SEGMENTS).fail(MISS_PATH, new ApiError(aErrNotFound, `no resource at ${path}: empty path segment`));
  }
  const root = seg[3];
  if (root !== 'device' && root !== 'brainstem' && !isRoot(root.toLowerCase())) return out.clear(NO_SEGMENTS).fail(MISS_PATH, notUnderApi(path));
  out.clear(seg);
  if (n === 4) return out;

  let i = 4;
  let text = seg[4];
  let name = text;
  let ops = ENTITY_FORMS[name];
  if (!ops) ops = ENTITY_FORMS[name = text.toLowerCase()];
  if (!ops) {
    const serial = parseSerial(text);
    if (serial < 0) return out.fail(MISS_PATH, new ApiError(aErrInvalidEntity, `unknown entity '${text}'`));
    out.kind = ADDRESS_DEVICE;
    out.serial = text.length - hexPrefix(text) > 8 ? TOO_LONG_SERIAL : serial;
    if (n === 5) return out;
    text = seg[i = 5];
    ops = ENTITY_FORMS[name = text];
    if (!ops) ops = ENTITY_FORMS[name = text.toLowerCase()];
    if (!ops) return out.fail(MISS_ENTITY, new ApiError(aErrInvalidEntity, `unknown entity '${text}'`));
  }
  out.kind = ADDRESS_ROUTE;
  out.entity = name;
  if (ops === UNSUPPORTED) return out.fail(MISS_ENTITY, new ApiError(aErrUnimplemented, `entity '${name}' is not supported`));
  if (++i === n) return out.fail(MISS_OPERATION, new ApiError(aErrInvalidOption, `missing operation after ${name}`));
  const index = parseIndex(seg[i]);
  if (index >= 0) {
    out.index = index;
    if (++i === n) return out.fail(MISS_OPERATION, new ApiError(aErrInvalidOption, `missing operation after ${name}/${index}`));
  }
  return parseOperation(seg[i], n - i - 1, ops, out);
}

/** The operation `text` (one of `ops`) and its forms taking `given` path parameters. */
function parseOperation(text: string, given: number, ops: EntityForms, out: Address): Address {
  let op = text;
  let lists = ops[op];
  if (!lists) lists = ops[op = text.toLowerCase()];
  if (!lists) return out.fail(MISS_OPERATION, new ApiError(aErrInvalidOption, `unknown operation '${text}' of ${out.entity}`));
  const forms = given < lists.length ? lists[given] : null;
  if (!forms) {
    return out.fail(MISS_OPERATION, new ApiError(aErrInvalidOption,
      `${out.entity}/${op} takes ${paramShapes(routeForms(out.entity, op)!)}; got ${given} path parameter${given === 1 ? '' : 's'}`));
  }
  out.op = op;
  out.forms = forms;
  return out;
}

function notUnderApi(path: string): ApiError {
  return new ApiError(aErrNotFound, `no resource at ${path}; start at /api/v1 (the API index)`);
}

function isRoot(lower: string): boolean {
  return lower === 'device' || lower === 'brainstem';
}

/** An index: decimal digits, no sign, no leading zero; -1 if the segment is not one. */
function parseIndex(segment: string): number {
  const n = segment.length;
  if (n > 1 && segment.charCodeAt(0) === 48) return -1;
  let v = 0;
  for (let i = 0; i < n; i++) {
    const d = segment.charCodeAt(i) - 48;
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
