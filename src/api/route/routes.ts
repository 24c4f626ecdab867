// The route table compiled once at start-up from the contract's route lines (route-table.ts): entity -> operation -> forms.
// An operation can have several forms told apart by their number of path parameters
// (powerdelivery/powerdataobject has a 3-parameter GET and a 2-parameter PUT).

import { ROUTE_LINES, routeRow } from './route-table';
import { EXTENSION_ROWS } from './route-extensions';
import { deepFreeze } from '../../../util/freeze';

/** `bytes` / `BYTES`: raw application/octet-stream bodies (route-extensions.ts). */
export type GetCode = 'int' | 'bool' | 'ilist' | 'str' | 'none' | 'bytes' | '-';
export type PutCode = 'I8' | 'I16' | 'I32' | 'BOOL' | 'L32' | 'L8' | 'STR' | 'BYTES' | '-';

export interface RouteParam {
  readonly name: string;
  /** Inclusive bounds; max < 0 means the module decides (channel, slot counts). */
  readonly min: number;
  readonly max: number;
}

export interface Route {
  readonly entity: string;
  readonly op: string;
  readonly params: readonly RouteParam[];
  readonly get: GetCode;
  readonly put: PutCode;
  /** u8 i8 u16 i16 u32 i32 bool list:u32 bytes:ipv4 bytes:mac bytes:text bytes:hex string, or '' for actions */
  readonly type: string;
  readonly unit: string;
  /** Inclusive value range narrower than the type, or min > max when there is none. */
  readonly min: number;
  readonly max: number;
  /** PUT answers {} even though the path has a GET (port/name). */
  readonly putEmpty: boolean;
  /** bytes:ipv4 holding several addresses (staticipv4dnsaddress). */
  readonly list: boolean;
  /**
   * The Allow value of this route's path: the methods of every form with as many path parameters
   * (GET, and HEAD unless an action; PUT; OPTIONS). Computed with the table, not per request.
   */
  readonly allow: string;
}

/** Entity names the API knows; `i2c` has no operations yet and answers 501 (docs/api.md). */
export const ENTITY_NAMES: readonly string[] = deepFreeze([
  'analog', 'app', 'clock', 'digital', 'equalizer', 'ethernet', 'hdbaset', 'i2c', 'mux', 'poe', 'pointer', 'port',
  'powerdelivery', 'rail', 'relay', 'servo', 'signal', 'store', 'system', 'temperature', 'timer', 'uart', 'usb',
  'usbsystem', 'userconfig',
]);

/** Entities the spec lists as unsupported at this time: every operation answers 501. */
export const UNSUPPORTED_ENTITIES: readonly string[] = deepFreeze(['app', 'i2c']);

function parseRange(text: string): [number, number] {
  const dots = text.indexOf('..');
  if (dots < 0) return [1, 0];
  return [Number(text.slice(0, dots)), Number(text.slice(dots + 2))];
}

function parseParams(text: string): RouteParam[] {
  const out: RouteParam[] = [];
  if (!text) return out;
  for (const part of text.split('/')) {
    const inner = part.slice(1, -1); // strip { }
    const colon = inner.indexOf(':');
    if (colon < 0) {
      out.push({ name: inner, min: 0, max: -1 });
    } else {
      const [min, max] = parseRange(inner.slice(colon + 1));
      out.push({ name: inner.slice(0, colon), min, max });
    }
  }
  return out;
}

/** entity -> lower-case operation -> its forms. Plain objects with no prototype (not Maps), so that
 * a device build can preload the table into flash and a segment like `__proto__` finds nothing. */
type Table = { [entity: string]: { [op: string]: Route[] } };

function compile(): Table {
  const table: Table = Object.create(null);
  for (const name of ENTITY_NAMES) table[name] = Object.create(null);
  // A split line's fields are new strings: one of each text is kept (a preloaded build keeps them in flash).
  const texts: { [text: string]: string } = Object.create(null);
  const one = (text: string): string => (texts[text] ??= text);
  const count = ROUTE_LINES.length;
  for (let i = 0; i < count + EXTENSION_ROWS.length; i++) {
    const [entity, op, params, get, put, type, unit, range, flags] = i < count ? routeRow(i) : EXTENSION_ROWS[i - count];
    const [min, max] = parseRange(range);
    const route: Route = {
      entity: one(entity), op: one(op), params: parseParams(params), get: one(get) as GetCode, put: one(put) as PutCode,
      type: one(type), unit: one(unit), min, max,
      putEmpty: flags === 'putEmpty', list: flags === 'list', allow: '',
    };
    const ops = table[entity];
    if (!ops) throw new Error(`route table names unknown entity ${entity}`);
    (ops[op] ??= []).push(route);
  }
  for (const entity in table) {
    for (const op in table[entity]) {
      const forms = table[entity][op];
      for (const r of forms) (r as { allow: string }).allow = allowOf(forms, r.params.length);
    }
  }
  return table;
}

/** GET (and HEAD unless an action), PUT, OPTIONS: what the forms with `count` path parameters offer. */
function allowOf(forms: readonly Route[], count: number): string {
  let get = false;
  let head = false;
  let put = false;
  for (const r of forms) {
    if (r.params.length !== count) continue;
    if (r.get !== '-') get = true;
    if (r.get !== '-' && r.get !== 'none') head = true;
    if (r.put !== '-') put = true;
  }
  return (get ? 'GET, ' : '') + (head ? 'HEAD, ' : '') + (put ? 'PUT, ' : '') + 'OPTIONS';
}

/** Deep-frozen: a preloaded build keeps the compiled table in flash. */
const ROUTES: Table = deepFreeze(compile());

/** The forms of `entity`/`op` (lower case), or undefined for an unknown operation. */
export function routeForms(entity: string, op: string): readonly Route[] | undefined {
  const ops = ROUTES[entity];
  return ops ? ops[op] : undefined;
}

/** The operation names of `entity`, in table order (for the device description). */
export function operationsOf(entity: string): string[] {
  const out: string[] = [];
  const ops = ROUTES[entity];
  if (ops) for (const op in ops) out.push(op);
  return out;
}

/** Every route, entity by entity (for the device description and tests). */
export function allRoutes(): Route[] {
  const out: Route[] = [];
  for (const entity of ENTITY_NAMES) {
    const ops = ROUTES[entity];
    for (const op in ops) for (const r of ops[op]) out.push(r);
  }
  return out;
}
