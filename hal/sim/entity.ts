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

/**
 * What one operation is on this entity: whether the module has it, what it can do (CAN_* bits), its
 * handlers, its limits and whether a register holds it. Worked out when a call names another
 * operation than the last, in place: a request makes its calls (supports, limits, set, get) on one
 * operation, so it looks it up in the behaviour tables once, not five times, and allocates nothing.
 */
class OpPlan {
  op = '';
  supported = false;
  can = 0;
  get: Getter | undefined = undefined;
  set: Setter | undefined = undefined;
  run: Runner | undefined = undefined;
  limits: OpLimits | undefined = undefined;
  register = false;
}

/** The plan of an operation by its name (one plan per entity, refilled for another operation). */
function planner<V extends ValueMap>(ctx: SimContext, name: EntityName, b: Behaviour<V>): (op: string) => OpPlan {
  const handlers = b as Behaviour<ValueMap> as {
    readonly get?: { readonly [op: string]: Getter | undefined };
    readonly set?: { readonly [op: string]: Setter | undefined };
    readonly run?: { readonly [op: string]: Runner | undefined };
    readonly limits?: { readonly [op: string]: OpLimits | undefined };
  };
  const plan = new OpPlan();
  return (op: string): OpPlan => {
    if (op === plan.op) return plan;
    // A register is read and written plainly; a handler does the rest.
    plan.register = b.registers?.has(op) === true;
    plan.get = handlers.get?.[op];
    plan.set = handlers.set?.[op];
    plan.run = handlers.run?.[op];
    plan.can = (plan.register ? CAN_READ | CAN_WRITE : 0) | (plan.get ? CAN_READ : 0) | (plan.set ? CAN_WRITE : 0) | (plan.run ? CAN_RUN : 0);
    plan.limits = handlers.limits?.[op];
    plan.supported = supportsOp(ctx.profile, name, op);
    plan.op = op;
    return plan;
  };
}

function build<V extends ValueMap>(ctx: SimContext, name: EntityName, b: Behaviour<V>): EntityHal<V> {
  type Op = keyof V & string;
  const count = ctx.count(name);
  const planOf = planner(ctx, name, b);
  // get and set are typed per operation by their first signature (EntityHal<V>); the second is what
  // runs. A handler is typed by its operation (Behaviour<V>); a register holds the value set() was
  // given, or its default: the register file is the one store kept erased (HalValue), as persisted.
  // The plan (planner) is shared: what a call needs of it is read before anything that may call
  // the entity again (the physics brought up to date, a handler).
  function get<K extends Op>(index: number, op: K, params: readonly number[]): V[K];
  function get(index: number, op: Op, params: readonly number[]): HalValue | void {
    const p = planOf(op);
    const h = p.get;
    const register = p.register;
    enter(name, index, count, op, p.supported);
    // A plain setting does not change with time: only derived values need the physics brought up to now.
    if (h) {
      ctx.advance();
      return h(index, params);
    }
    if (register) return b.registers!.read(index, op, params);
    throw cannot(name, op, CAN_READ);
  }
  function set<K extends Op>(index: number, op: K, params: readonly number[], value: V[K]): void {
    const p = planOf(op);
    const h = p.set;
    enter(name, index, count, op, p.supported);
    // An action's value (void) is never set: the API core sends PUT only to routes with a put code.
    if (value === undefined) throw cannot(name, op, CAN_WRITE);
    checkSet(name, index, op, p.can, p.limits, value);
    ctx.touch();
    if (h) return h(index, params, value);
    b.registers!.write(index, op, params, value); // checkSet found a register
  }
  return {
    count,
    supports: (op: Op) => planOf(op).supported,
    limit: (index: number, param: string) => (b.limit ? b.limit(index, param) : 0),
    limits: (op: Op) => {
      const p = planOf(op);
      return publishedLimits(p.can, p.limits);
    },
    get,
    set,
    run(index: number, op: Op, params: readonly number[]): void {
      const p = planOf(op);
      const h = p.run;
      enter(name, index, count, op, p.supported);
      if (!h) throw cannot(name, op, CAN_RUN);
      ctx.touch();
      h(index, params);
    },
  };
}
