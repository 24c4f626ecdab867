// An Address (parse-path.ts) resolved against the devices this server reaches: the device, the
// entity's HAL, the index checked against the HAL's instance count (docs/api.md §Addresses), and the
// first fault along the path reported, the parser's included. A miss is returned, never thrown: it is
// an everyday answer and a throw costs more than the whole lookup.

import { ApiError, aErrIndexRange, aErrInvalidEntity, aErrNotFound } from '../../../hal/kit/errors';
import { ADDRESS_ROUTE, MISS_ENTITY, MISS_PATH, NO_INDEX, NO_SERIAL, parsePath, type Address } from './parse-path';
import type { EntityHal, ModuleHal } from '../../../hal/types';

/** What a path names on this server: its Address and what that finds. One is reused per Api. */
export class Target {
  /** The parsed path (kind, entity, op, forms, params as sent). */
  address: Address;
  /** null only for the device list. */
  device: ModuleHal | null = null;
  /** The entity's HAL (ADDRESS_ROUTE only). */
  hal: EntityHal | null = null;
  /** The index, 0 when the path gives none. */
  index = 0;

  constructor(address: Address) {
    this.address = address;
  }
}
Object.freeze(Target.prototype);

/**
 * Resolve `a` into `out`, or answer the first fault along the path: the parser's fault of form where
 * it lies among the checks of substance (the device, the entity's HAL, the index).
 */
export function resolve(a: Address, devices: readonly ModuleHal[], out: Target = new Target(a)): Target | ApiError {
  if (a.missAt === MISS_PATH) return a.miss!;
  let device: ModuleHal | null = null;
  if (a.serial !== NO_SERIAL) {
    for (let i = 0; i < devices.length && device === null; i++) if (devices[i].serialNumber === a.serial) device = devices[i];
    if (device === null) return new ApiError(aErrNotFound, `no device with serial number ${a.serialText} on this server`);
  } else if (a.kind === ADDRESS_ROUTE) {
    if (devices.length !== 1) {
      return new ApiError(aErrNotFound, `this server reaches ${devices.length} devices: put the serial number in the path, /api/v1/device/{serial}/${a.entityText}/...`);
    }
    device = devices[0];
  }
  if (a.missAt === MISS_ENTITY) return a.miss!;
  out.address = a;
  out.device = device;
  out.hal = null;
  out.index = a.index === NO_INDEX ? 0 : a.index;
  if (a.kind !== ADDRESS_ROUTE) return out;
  const hal = (device!.entities as { readonly [name: string]: EntityHal | undefined })[a.entity];
  if (!hal) return new ApiError(aErrInvalidEntity, `this module has no ${a.entity} entity`);
  if (a.index >= hal.count) return new ApiError(aErrIndexRange, `${a.entity} index ${a.index} out of range 0..${hal.count - 1}`);
  if (a.miss) return a.miss;
  out.hal = hal;
  return out;
}

/** Parse and resolve in one call, into new objects (the event stream's watch list, tests, benches). */
export function lookup(path: string, devices: readonly ModuleHal[]): Target | ApiError {
  return resolve(parsePath(path), devices);
}
