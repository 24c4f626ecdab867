// GET /api/v1/device/{serial}: what one module has and accepts (DECISIONS.md §Self-description):
// {serialNumber, model, module, entities: {name: {count, operations: {op: {get, put, type, unit,
// params, min/max | values}}}}}. The limits come from the HAL's limits(op), the same data the HAL
// enforces. The text is made in pieces, one entity at a time, by a DescriptionStream the HTTP core
// polls whenever its transport has room (a chunked body): no build, simulator or module, ever holds
// the whole description, only the piece being sent.

import { serialText } from './path-match';
import { ENTITY_NAMES, operationsOf, routeForms, type Route, type RouteParam } from './routes';
import type { EntityHal, ModuleHal, OpLimits } from '../../hal/types';
import type { ResponseStream } from '../http/request';

type Halls = { readonly [name: string]: EntityHal | undefined };

function readSystem(d: ModuleHal, op: 'model' | 'module'): number {
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
  if (l.values) return ',"values":[' + l.values.join(',') + ']';
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
  return out + (settable ? limitsJson(limits) : '') + '}';
}

/**
 * `"name":{"count":n,"operations":{...}}` for one entity, after `lead` (a separating comma), or ''
 * when the module lacks it or can do none of it.
 */
export function entityJson(name: string, hal: EntityHal | undefined, lead = ''): string {
  if (!hal) return '';
  let ops = '';
  for (const op of operationsOf(name)) {
    if (!hal.supports(op)) continue;
    ops += (ops ? ',' : '') + '"' + op + '":' + operationJson(routeForms(name, op)!, hal, op);
  }
  if (!ops) return ''; // present but able to do nothing (app, i2c): not listed
  return lead + '"' + name + '":{"count":' + hal.count + ',"operations":{' + ops + '}}';
}

/**
 * The description as a ResponseStream, inside `before` and `after` (an envelope's head and tail):
 * the first poll gives `before` and the identity, each next one entity (a few KB at most), then the
 * tail, then null. Nothing is kept between polls but the position.
 */
export class DescriptionStream implements ResponseStream {
  private readonly device: ModuleHal;
  private before: string;
  private readonly after: string;
  /** -1: nothing sent yet; then the index in ENTITY_NAMES of the next entity; past them, the tail. */
  private next = -1;
  private listed = 0;

  constructor(device: ModuleHal, before: string, after: string) {
    this.device = device;
    this.before = before;
    this.after = after;
  }

  poll(): string | null {
    const names = ENTITY_NAMES;
    if (this.next < 0) {
      this.next = 0;
      const head = this.before + identity(this.device).slice(0, -1) + ',"entities":{';
      this.before = '';
      return head;
    }
    const halOf = this.device.entities as Halls;
    while (this.next < names.length) {
      const name = names[this.next++];
      const piece = entityJson(name, halOf[name], this.listed ? ',' : '');
      if (!piece) continue;
      this.listed++;
      return piece;
    }
    if (this.next++ === names.length) return '}}' + this.after;
    return null;
  }

  close(): void {
    this.next = ENTITY_NAMES.length + 1;
  }
}
Object.freeze(DescriptionStream.prototype);

/** The description in pieces, without an envelope (tests, tools). */
export function describeDevice(d: ModuleHal, emit: (piece: string) => void): void {
  const stream = new DescriptionStream(d, '', '');
  for (let piece = stream.poll(); piece !== null; piece = stream.poll()) emit(piece);
}
