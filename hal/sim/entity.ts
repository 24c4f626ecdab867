// Builds an EntityHal from behaviour tables: an operation with a handler runs it; any other operation
// that names a register reads or writes it plainly. A derived read first brings the simulation up to
// date; a change first integrates up to now (the physics advances at most once per request).
// `limits` is the one source of what the module accepts beyond the route table: limits(op) publishes it
// (GET /api/v1/device/{serial}) and set() enforces it before the handler runs, so the two cannot drift.
// The rules and their wording are the kit's (hal/kit/entity-rules.ts), shared with the device HAL.

import { CAN_READ, CAN_RUN, CAN_WRITE, cannot, checkSet, enter, publishedLimits } from '../kit/entity-rules';
import type { EntityHal, EntityName, HalValue, OpLimits, OpsOf } from '../types';
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
  const supports = (op: Op): boolean => supportsOp(ctx.profile, name, op);
  // A register is read and written plainly; a handler does the rest.
  const can = (op: Op): number => {
    const reg = b.registers?.has(op) ? CAN_READ | CAN_WRITE : 0;
    return reg | (b.get?.[op] ? CAN_READ : 0) | (b.set?.[op] ? CAN_WRITE : 0) | (b.run?.[op] ? CAN_RUN : 0);
  };
  return {
    count,
    supports,
    limit: (index: number, param: string) => (b.limit ? b.limit(index, param) : 0),
    limits: (op: Op) => publishedLimits(can(op), b.limits?.[op]),
    get(index: number, op: Op, params: readonly number[]): HalValue {
      enter(name, index, count, op, supports(op));
      const h = b.get?.[op];
      // A plain setting does not change with time: only derived values need the physics brought up to now.
      if (h) {
        ctx.advance();
        return h(index, params);
      }
      if (b.registers?.has(op)) return b.registers.read(index, op, params);
      throw cannot(name, op, CAN_READ);
    },
    set(index: number, op: Op, params: readonly number[], value: HalValue): void {
      enter(name, index, count, op, supports(op));
      checkSet(name, index, op, can(op), b.limits?.[op], value);
      ctx.touch();
      const h = b.set?.[op];
      if (h) return h(index, params, value);
      b.registers!.write(index, op, params, value); // checkSet found a register
    },
    run(index: number, op: Op, params: readonly number[]): void {
      enter(name, index, count, op, supports(op));
      const h = b.run?.[op];
      if (!h) throw cannot(name, op, CAN_RUN);
      ctx.touch();
      h(index, params);
    },
  };
}
