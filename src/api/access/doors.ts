// The API's top-level resources beside the operations (docs/api.md §Access control), each with the
// methods it takes and the access class of each: the one table Api.answer looks a request up in, so
// that access is decided in one place (AccessControl.admit) and once per request. Device-side code:
// the table is frozen data, preloaded into flash.

import { deepFreeze } from '../../../util/freeze';
import { INDEX_PATH, OPENAPI_PATH } from './site';
import { METRICS_PATH } from '../resources/metrics';

/** Access classes (AccessControl.admit): what a request of that class must pass besides the Host check. */
/** A page or document that holds no value (the console, the index, the OpenAPI document): nothing more. */
export const ACCESS_OPEN = 0;
/** A read of values: the token too when the operator closed reads. */
export const ACCESS_READ = 1;
/** A write (a PUT, an action): refused cross-site, the token when one is set. */
export const ACCESS_ACT = 2;
/** An event stream: a read that holds a connection slot while it lasts. */
export const ACCESS_STREAM = 3;
/** A firmware image: a write that needs a token to be set at all (none set: 403 saying how). */
export const ACCESS_UPDATE = 4;
/** The method is not offered (405 with Allow). */
export const NO_ACCESS = -1;

export interface Door {
  /** Its name in messages and benches. */
  readonly name: string;
  /** The Allow header of a 405 and of OPTIONS. */
  readonly allow: string;
  /** Access class of GET, of HEAD and of PUT (NO_ACCESS: 405). */
  readonly get: number;
  readonly head: number;
  readonly put: number;
  /** OPTIONS is answered (204, CORS preflight); false: 405 like any method not offered. */
  readonly options: boolean;
}

export const DOOR_INDEX = 0;
export const DOOR_OPENAPI = 1;
export const DOOR_CONSOLE = 2;
export const DOOR_METRICS = 3;
export const DOOR_EVENTS = 4;
export const DOOR_LISTING = 5;
export const DOOR_FIRMWARE = 6;
/** The path names an operation (or nothing): the route table decides. */
export const NO_DOOR = -1;

const READ_ALLOW = 'GET, HEAD, OPTIONS';

export const DOORS: readonly Door[] = deepFreeze([
  { name: 'index', allow: READ_ALLOW, get: ACCESS_OPEN, head: ACCESS_OPEN, put: NO_ACCESS, options: true },
  { name: 'openapi', allow: READ_ALLOW, get: ACCESS_OPEN, head: ACCESS_OPEN, put: NO_ACCESS, options: true },
  { name: 'console', allow: 'GET, HEAD', get: ACCESS_OPEN, head: ACCESS_OPEN, put: NO_ACCESS, options: false },
  { name: 'metrics', allow: READ_ALLOW, get: ACCESS_READ, head: ACCESS_READ, put: NO_ACCESS, options: true },
  { name: 'events', allow: 'GET', get: ACCESS_STREAM, head: NO_ACCESS, put: NO_ACCESS, options: false },
  { name: 'listing', allow: READ_ALLOW, get: ACCESS_READ, head: ACCESS_READ, put: NO_ACCESS, options: true },
  { name: 'firmware', allow: 'GET, HEAD, PUT, OPTIONS', get: ACCESS_READ, head: ACCESS_READ, put: ACCESS_UPDATE, options: true },
]);

/** The last segment of a device's event stream: /api/v1/device[/{serial}]/events. */
export const EVENTS_SEGMENT = '/events';
/** The last segment of a device's firmware: /api/v1/device[/{serial}]/firmware. */
export const FIRMWARE_SEGMENT = '/firmware';

/** `path` ends in `segment` under /api/v1/ (a device's events or firmware). */
export function deviceResource(path: string, segment: string): boolean {
  // Its '/' checked first: on Node an endsWith costs several times a charCodeAt, and few paths pass.
  const at = path.length - segment.length;
  return at > 0 && path.charCodeAt(at) === 47 && path.endsWith(segment) && path.lastIndexOf('/api/v1/', 0) === 0;
}

/**
 * The door of a path (query removed), or NO_DOOR: operations, and the device listings, which only the
 * path parser tells apart (Api.answer then takes DOOR_LISTING).
 */
export function doorOf(path: string): number {
  if (path === '/') return DOOR_CONSOLE;
  if (path.charCodeAt(1) !== 97) return path === METRICS_PATH ? DOOR_METRICS : NO_DOOR; // not /api...
  if (path === INDEX_PATH) return DOOR_INDEX;
  if (path === OPENAPI_PATH) return DOOR_OPENAPI;
  // An operation path never ends in these: its last segment is an operation or a parameter.
  if (deviceResource(path, EVENTS_SEGMENT)) return DOOR_EVENTS;
  if (deviceResource(path, FIRMWARE_SEGMENT)) return DOOR_FIRMWARE;
  return NO_DOOR;
}

/** The access class of `method` at `door` (NO_ACCESS: 405); OPTIONS is answered before this is asked. */
export function accessOf(door: Door, method: string): number {
  return method === 'GET' ? door.get : method === 'HEAD' ? door.head : method === 'PUT' ? door.put : NO_ACCESS;
}
