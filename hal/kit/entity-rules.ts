// The rules every entity of both HALs follows, whatever builds it (hal/sim/entity.ts from behaviour
// tables, hal/device/entity.ts from frozen op tables): an index names an instance; an operation the
// module lacks is 501; what limits(op) publishes is what set() enforces; a value the module can read but
// not set publishes READ_ONLY and refuses a PUT. Each builder answers "what can this operation do here"
// as CAN_* bits and leaves the wording and the checks to these functions.

import { ApiError, aErrIndexRange, aErrUnimplemented } from './errors';
import { checkLimits, READ_ONLY } from './value-limits';
import type { HalValue, OpLimits } from '../types';

/** What an operation can do on this module: read a value, set it, or run as an action. */
export const CAN_READ = 1;
export const CAN_WRITE = 2;
export const CAN_RUN = 4;

/** aErrIndexRange unless `index` names one of the entity's `count` instances. */
export function checkInstance(name: string, index: number, count: number): void {
  if (!(index >= 0 && index < count)) {
    throw new ApiError(aErrIndexRange, `${name} index ${index} out of range 0..${count - 1}`);
  }
}

/** An operation this module does not have (its capability table says no). */
export function unsupported(name: string, op: string): ApiError {
  return new ApiError(aErrUnimplemented, `${name}/${op} is not supported by this module`);
}

/** An operation the module has, asked to do what it cannot here (`can` is the one asked for). */
export function cannot(name: string, op: string, can: number): ApiError {
  const what = can === CAN_READ ? 'read' : can === CAN_WRITE ? 'set' : 'run';
  return new ApiError(aErrUnimplemented, `${name}/${op} cannot be ${what} on this module`);
}

/** Every call starts here: the instance exists and the module has the operation. */
export function enter(name: string, index: number, count: number, op: string, supported: boolean): void {
  checkInstance(name, index, count);
  if (!supported) throw unsupported(name, op);
}

/**
 * What limits(op) publishes: a settable value its own limits (null: nothing narrower than the route
 * table), a value that can only be read READ_ONLY, an action nothing (it takes no value).
 */
export function publishedLimits(can: number, own: OpLimits | null | undefined): OpLimits | null {
  if (can & CAN_WRITE) return own ?? null;
  return can === CAN_RUN ? null : READ_ONLY;
}

/** Before a set changes anything: the value can be set here and lies inside what is published. */
export function checkSet(name: string, index: number, op: string, can: number, own: OpLimits | null | undefined, value: HalValue): void {
  if (!(can & CAN_WRITE)) throw cannot(name, op, CAN_WRITE);
  if (own) checkLimits(op, own, value); // a call only when there is a limit
}
