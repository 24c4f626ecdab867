// Builds an EntityHal from behaviour tables: an operation with a handler runs it; any other operation
// that names a register reads or writes it plainly. A derived read first brings the simulation up to
// date; a change first integrates up to now (the physics advances at most once per request).
// `limits` is the one source of what the module accepts beyond the route table: limits(op) publishes it
// (GET /api/v1/device/{serial}) and set() enforces it before the handler runs, so the two cannot drift.
// The rules and their wording are the kit's (hal/kit/entity-rules.ts), shared with the device HAL.

import { CAN_READ, CAN_RUN, CAN_WRITE, cannot, checkSet, enter, publishedLimits } from '../kit/entity-rules';
import type { EntityHal, EntityName, HalOf, HalValue, OpLimits, ValueMap, ValuesOf } from '../types';
import type { SimContext } from './context';
import { supportsOp } from './profile';
import type { RegisterFile } from './registers';

export type Getter<T = HalValue> = (index: number, params: readonly number[]) => T;
export type Setter<T = HalValue> = (index: number, params: readonly number[], value: T) => void;
export type Runner = (index: number, params: readonly number[]) => void;

/** Read handlers, one per operation, each returning its operation's value type (V: op -> value). */
export type Getters<V> = { [K in keyof V]?: Getter<V[K]> };
/** Set handlers, one per operation, each taking its operation's value type. */
export type Setters<V> = { [K in keyof V]?: Setter<V[K]> };

export interface Behaviour<V> {
  readonly registers?: RegisterFile;
  readonly get?: Getters<V>;
  readonly set?: Setters<V>;
  readonly run?: { readonly [K in keyof V]?: Runner };
  /** Exclusive bound of a module-defined path parameter ({channel}, {slot}). */
  readonly limit?: (index: number, param: string) => number;
  /** Published and enforced value limits, per operation (OpLimits: min/max or values). */
  readonly limits?: { readonly [K in keyof V]?: OpLimits };
}

export function makeEntity<E extends EntityName>(ctx: SimContext, name: E, b: Behaviour<ValuesOf<E>>): HalOf<E> {
  return build<ValuesOf<E>>(ctx, name, b);
}

function build<V extends ValueMap>(ctx: SimContext, name: EntityName, b: Behaviour<V>): EntityHal<V> {
  type Op = keyof V & string;
  const count = ctx.count(name);
  const supports = (op: Op): boolean => supportsOp(ctx.profile, name, op);
  // A register is read and written plainly; a handler does the rest.
  const can = (op: Op): number => {
    const reg = b.registers?.has(op) ? CAN_READ | CAN_WRITE : 0;
    return reg | (b.get?.[op] ? CAN_READ : 0) | (b.set?.[op] ? CAN_WRITE : 0) | (b.run?.[op] ? CAN_RUN : 0);
  };
  // get and set are typed per operation by their first signature (EntityHal<V>); the second is what
  // runs. A handler is typed by its operation (Behaviour<V>); a register holds the value set() was
  // given, or its default: the register file is the one store kept erased (HalValue), as persisted.
  function get<K extends Op>(index: number, op: K, params: readonly number[]): V[K];
  function get(index: number, op: Op, params: readonly number[]): HalValue | void {
    enter(name, index, count, op, supports(op));
    const h = b.get?.[op];
    // A plain setting does not change with time: only derived values need the physics brought up to now.
    if (h) {
      ctx.advance();
      return h(index, params);
    }
    if (b.registers?.has(op)) return b.registers.read(index, op, params);
    throw cannot(name, op, CAN_READ);
  }
  function set<K extends Op>(index: number, op: K, params: readonly number[], value: V[K]): void {
    enter(name, index, count, op, supports(op));
    // An action's value (void) is never set: the API core sends PUT only to routes with a put code.
    if (value === undefined) throw cannot(name, op, CAN_WRITE);
    checkSet(name, index, op, can(op), b.limits?.[op], value);
    ctx.touch();
    const h = b.set?.[op];
    if (h) return h(index, params, value);
    b.registers!.write(index, op, params, value); // checkSet found a register
  }
  return {
    count,
    supports,
    limit: (index: number, param: string) => (b.limit ? b.limit(index, param) : 0),
    limits: (op: Op) => publishedLimits(can(op), b.limits?.[op]),
    get,
    set,
    run(index: number, op: Op, params: readonly number[]): void {
      enter(name, index, count, op, supports(op));
      const h = b.run?.[op];
      if (!h) throw cannot(name, op, CAN_RUN);
      ctx.touch();
      h(index, params);
    },
  };
}
