// Builds an EntityHal from behaviour tables: an operation with a handler runs it; any other operation
// that names a register reads or writes it plainly. A derived read first brings the simulation up to
// date; a change first integrates up to now (the physics advances at most once per request).
// `limits` is the one source of what the module accepts beyond the route table: limits(op) publishes it
// (GET /api/v1/device/{serial}) and set() enforces it before the handler runs, so the two cannot drift.

import { ApiError, aErrIndexRange, aErrUnimplemented } from '../kit/errors';
import type { EntityHal, EntityName, HalValue, OpLimits, OpsOf } from '../types';
import { checkLimits, READ_ONLY } from '../kit/limits';
import type { SimContext } from './context';
import { supportsOp } from './profile';
import type { RegisterFile } from './registers';

export type Getter = (index: number, params: readonly number[]) => HalValue;
export type Setter = (index: number, params: readonly number[], value: HalValue) => void;
export type Runner = (index: number, params: readonly number[]) => void;

export interface Behaviour<Op extends string> {
  readonly registers?: RegisterFile;
  readonly get?: { readonly [K in Op]?: Getter };
  readonly set?: { readonly [K in Op]?: Setter };
  readonly run?: { readonly [K in Op]?: Runner };
  /** Exclusive bound of a module-defined path parameter ({channel}, {slot}). */
  readonly limit?: (index: number, param: string) => number;
  /** Published and enforced value limits, per operation (OpLimits: min/max or values). */
  readonly limits?: { readonly [K in Op]?: OpLimits };
}

export function makeEntity<E extends EntityName>(
  ctx: SimContext,
  name: E,
  b: Behaviour<OpsOf<E>>,
): EntityHal<OpsOf<E>> {
  type Op = OpsOf<E>;
  const count = ctx.count(name);
  const enter = (index: number, op: string): void => {
    if (!(index >= 0 && index < count)) throw new ApiError(aErrIndexRange, `${name} index ${index} out of range 0..${count - 1}`);
    if (!supportsOp(ctx.profile, name, op)) throw new ApiError(aErrUnimplemented, `${name}/${op} is not supported by this module`);
  };
  const missing = (op: string, what: string): ApiError =>
    new ApiError(aErrUnimplemented, `${name}/${op}: no ${what} on this module`);
  return {
    count,
    supports: (op: Op) => supportsOp(ctx.profile, name, op),
    limit: (index: number, param: string) => (b.limit ? b.limit(index, param) : 0),
    // An operation with neither a set handler nor a register cannot be set here: PUT answers 501.
    limits: (op: Op) => b.limits?.[op] ?? (b.set?.[op] || b.registers?.has(op) ? null : READ_ONLY),
    get(index: number, op: Op, params: readonly number[]): HalValue {
      enter(index, op);
      const h = b.get?.[op];
      // A plain setting does not change with time: only derived values need the physics brought up to now.
      if (h) {
        ctx.advance();
        return h(index, params);
      }
      if (b.registers?.has(op)) return b.registers.read(index, op, params);
      throw missing(op, 'read');
    },
    set(index: number, op: Op, params: readonly number[], value: HalValue): void {
      enter(index, op);
      const l = b.limits?.[op];
      checkLimits(`${name}/${index}/${op}`, l, value);
      ctx.touch();
      const h = b.set?.[op];
      if (h) return h(index, params, value);
      if (b.registers?.has(op)) return b.registers.write(index, op, params, value);
      throw missing(op, 'write');
    },
    run(index: number, op: Op, params: readonly number[]): void {
      enter(index, op);
      ctx.touch();
      const h = b.run?.[op];
      if (h) return h(index, params);
      throw missing(op, 'action');
    },
  };
}
