// The per-operation data of the device HAL: one frozen table per entity (module-level, so it is
// preloaded into flash) says where each operation's value lives and what the module accepts. The same
// row both enforces a limit (DeviceEntity.set) and publishes it (EntityHal.limits), so the two cannot
// drift (docs/api.md §What a module has and accepts).

import type { OpLimits } from '../types';

/** `code` bits: the entity's own read / write / action method answers the operation. */
export const READ = 1;
export const WRITE = 2;
export const RUN = 4;

/** One operation's row; `T` is its value type (EntityValues): a factory or fixed value must be one. */
export interface OpRow<T = number | boolean> {
  /**
   * The operating parameter the operation reads and (unless readOnly) writes: a Settings key, per
   * instance for entities with a per-index prefix ("sig" + 0 + "." + "t3").
   */
  readonly setting?: string;
  /** The setting's factory value (declared for every instance when the entity is made). */
  readonly factory?: T;
  /**
   * A value this board always reads. With `limits.values` equal to [fixed], a PUT of that value is
   * accepted and changes nothing; any other is 400 aErrRange.
   */
  readonly fixed?: T;
  /** READ | WRITE | RUN: handled by the entity's read / write / action methods. */
  readonly code?: number;
  /** Readable but not settable on this module: its PUT answers 501 aErrUnimplemented. */
  readonly readOnly?: boolean;
  /** What this module accepts beyond the route table (published as is). */
  readonly limits?: OpLimits;
}

/**
 * An entity's rows, each typed by its operation's value in `V` (ValuesOf<'system'>...): a boolean
 * operation cannot have a factory value of 0. Settings hold numbers and booleans here; a string
 * setting (system/name) gets its factory value from the entity's constructor.
 */
export type OpTable<V> = { readonly [K in keyof V]?: OpRow<Extract<V[K], number | boolean>> };
