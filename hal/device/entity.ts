// Builds an EntityHal from handler tables. An operation is supported exactly when it has a handler,
// so the capability table (501 aErrUnimplemented) and the code cannot drift apart.

import { ApiError, aErrIndexRange, aErrUnimplemented } from '../../src/api/errors';
import type { EntityHal, EntityName, EntityOps, HalValue } from '../types';

export type Getter = (index: number, params: readonly number[]) => HalValue;
export type Setter = (index: number, params: readonly number[], value: HalValue) => void;
export type Runner = (index: number, params: readonly number[]) => void;

export interface Handlers<Op extends string> {
  readonly count: number;
  readonly get?: { readonly [K in Op]?: Getter };
  readonly set?: { readonly [K in Op]?: Setter };
  readonly run?: { readonly [K in Op]?: Runner };
  /** Exclusive bound of a module-defined path parameter ({slot}). */
  readonly limit?: (index: number, param: string) => number;
}

export function makeEntity<E extends EntityName>(name: E, h: Handlers<EntityOps[E]>): EntityHal<EntityOps[E]> {
  type Op = EntityOps[E];
  const count = h.count;
  const check = (index: number): void => {
    // The core checks the index against count; this guards direct callers.
    if (!(index >= 0 && index < count)) throw new ApiError(aErrIndexRange, `${name} index ${index} out of range 0..${count - 1}`);
  };
  const unsupported = (op: string): ApiError => new ApiError(aErrUnimplemented, `${name}/${op} is not available on this board`);
  return {
    count,
    supports: (op: Op) => !!(h.get?.[op] || h.set?.[op] || h.run?.[op]),
    limit: (index: number, param: string) => (h.limit ? h.limit(index, param) : 0),
    get(index: number, op: Op, params: readonly number[]): HalValue {
      check(index);
      const f = h.get?.[op];
      if (!f) throw unsupported(op);
      return f(index, params);
    },
    set(index: number, op: Op, params: readonly number[], value: HalValue): void {
      check(index);
      const f = h.set?.[op];
      if (!f) throw unsupported(op);
      f(index, params, value);
    },
    run(index: number, op: Op, params: readonly number[]): void {
      check(index);
      const f = h.run?.[op];
      if (!f) throw unsupported(op);
      f(index, params);
    },
  };
}
