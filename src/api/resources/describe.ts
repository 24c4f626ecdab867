// GET /api/v1/device/{serial}: what one module has and accepts (docs/api.md §What a module has and accepts):
// {serialNumber, model, module, name, firmware ("major.minor.patch"), entities: {name: {count, operations: {op: {get, put, type, unit,
// params, min/max | values}}}}}. The bounds of an integer PUT are publishedBounds (./bounds.ts): the
// type, the range column and the HAL's limits(op), the same data the API and the HAL enforce. The text
// is made in pieces of about half a kilobyte (a few operations of one entity) by a
// DescriptionStream the HTTP core polls whenever its transport has room (a chunked body): no build,
// simulator or module, ever holds the whole description, only the piece being sent.

import { serialText } from '../route/serial';
import { ENTITY_NAMES, operationsOf, routeForms, type Route, type RouteParam } from '../route/routes';
import { publishedBounds, takesIntegers } from '../values/bounds';
import { versionText } from './firmware-image';
import { valuesJson } from '../../../hal/kit/value-limits';
import type { EntityHal, ModuleHal, OpLimits } from '../../../hal/types';
import type { ResponseStream } from '../../http/request';

type Halls = { readonly [name: string]: EntityHal | undefined };

function readSystem(d: ModuleHal, op: 'model' | 'module' | 'version'): number {
  const system = d.entities.system;
  return system && system.supports(op) ? (system.get(0, op, []) as number) : 0;
}

/** {serialNumber, model, module}: one entry of GET /api/v1/device. */
export function identity(d: ModuleHal): string {
  return '{"serialNumber":"' + serialText(d.serialNumber) + '","model":' + readSystem(d, 'model') +
    ',"module":' + readSystem(d, 'module') + '}';
}

/** Path parameters with their ranges; a bound the module decides is read from the HAL (instance 0). */
function paramsJson(params: readonly RouteParam[], hal: EntityHal): string {
  let out = '[';
  for (let k = 0; k < params.length; k++) {
    const p = params[k];
    const max = p.max >= 0 ? p.max : hal.limit(0, p.name) - 1;
    out += (k ? ',' : '') + '{"name":"' + p.name + '","min":' + p.min + ',"max":' + max + '}';
  }
  return out + ']';
}

function limitsJson(l: OpLimits | null): string {
  if (!l) return '';
  if (l.values) return ',"values":' + valuesJson(l);
  return (l.min !== undefined ? ',"min":' + l.min : '') + (l.max !== undefined ? ',"max":' + l.max : '');
}

/** One operation's object, from its forms (a GET form and a PUT form may take different parameters). */
export function operationJson(forms: readonly Route[], hal: EntityHal, op: string): string {
  let getForm: Route | null = null;
  let putForm: Route | null = null;
  for (const r of forms) {
    if (r.get !== '-' && !getForm) getForm = r;
    if (r.put !== '-' && !putForm) putForm = r;
  }
  const main = getForm ?? putForm ?? forms[0];
  const limits = hal.limits ? hal.limits(op) : null;
  const settable = putForm !== null && !(limits && limits.readOnly);
  let out = '{' + (getForm ? '"get":"' + getForm.get + '",' : '') + (settable ? '"put":"' + putForm!.put + '",' : '') +
    '"type":"' + main.type + '","unit":' + JSON.stringify(main.unit) + ',"params":' + paramsJson(main.params, hal);
  if (settable && putForm !== main && putForm!.params.length !== main.params.length) {
    out += ',"putParams":' + paramsJson(putForm!.params, hal);
  }
  if (!settable) return out + '}';
  // An integer PUT always publishes its bounds: the type, the range column and the module's limits.
  return out + limitsJson(takesIntegers(putForm!) ? publishedBounds(putForm!, limits) : limits) + '}';
}

/** A piece grows to about this many characters (one operation more at most), then goes out. */
export const PIECE_TARGET = 512;

/**
 * The description as a ResponseStream, inside `before` and `after` (an envelope's head and tail):
 * the first poll gives `before` and the identity; each next one gives operations of one entity, as
 * many as fit in about PIECE_TARGET characters (an entity's opening and closing ride with its first
 * and last operations); then the tail, then null. Between polls it keeps only its position and the
 * present entity's operation names. An entity the module lacks, or whose operations it can do none
 * of (app, i2c), is not listed.
 */
export class DescriptionStream implements ResponseStream {
  private readonly device: ModuleHal;
  private before: string;
  private readonly after: string;
  /** -1: nothing sent yet; then the index in ENTITY_NAMES of the present entity; past them, the tail. */
  private entity = -1;
  /** The present entity's operation names and the index of the next one to look at. */
  private ops: string[] | null = null;
  private op = 0;
  /** Has the present entity been opened (`"name":{...,"operations":{` sent)? */
  private opened = false;
  private listed = 0;

  constructor(device: ModuleHal, before: string, after: string) {
    this.device = device;
    this.before = before;
    this.after = after;
  }

  poll(): string | null {
    const names = ENTITY_NAMES;
    if (this.entity < 0) {
      this.entity = 0;
      const name = this.device.name;
      const head = this.before + identity(this.device).slice(0, -1) + (name ? ',"name":' + JSON.stringify(name) : '') +
        ',"firmware":"' + versionText(readSystem(this.device, 'version')) + '","entities":{';
      this.before = '';
      return head;
    }
    while (this.entity < names.length) {
      const piece = this.operations(names[this.entity]);
      if (piece) return piece;
    }
    if (this.entity++ === names.length) return '}}' + this.after;
    return null;
  }

  close(): void {
    this.entity = ENTITY_NAMES.length + 1;
    this.ops = null;
  }

  /** The present entity's next operations ('' when it has none this module can do); moves on at its end. */
  private operations(name: string): string {
    const hal = (this.device.entities as Halls)[name];
    if (!hal) return this.nextEntity('');
    const ops = this.ops ?? (this.ops = operationsOf(name));
    let piece = '';
    while (this.op < ops.length && piece.length < PIECE_TARGET) {
      const op = ops[this.op++];
      if (!hal.supports(op)) continue;
      if (this.opened) piece += ',';
      else piece += (this.listed++ ? ',"' : '"') + name + '":{"count":' + hal.count + ',"operations":{';
      this.opened = true;
      piece += '"' + op + '":' + operationJson(routeForms(name, op)!, hal, op);
    }
    if (this.op < ops.length) return piece;
    return this.nextEntity(this.opened ? piece + '}}' : piece);
  }

  private nextEntity(piece: string): string {
    this.entity++;
    this.ops = null;
    this.op = 0;
    this.opened = false;
    return piece;
  }
}
Object.freeze(DescriptionStream.prototype);

/** The description in pieces, without an envelope (tests, tools). */
export function describeDevice(d: ModuleHal, emit: (piece: string) => void): void {
  const stream = new DescriptionStream(d, '', '');
  for (let piece = stream.poll(); piece !== null; piece = stream.poll()) emit(piece);
}
