// The per-operation data of the device HAL: one frozen table per entity (module-level, so it is
// preloaded into flash) says where each operation's value lives and what the module accepts. The same
// row both enforces a limit (DeviceEntity.set) and publishes it (EntityHal.limits), so the two cannot
// drift (DECISIONS.md §Self-description).

import type { OpLimits } from '../types';

/** `code` bits: the entity's own read / write / action method answers the operation. */
export const READ = 1;
export const WRITE = 2;
export const RUN = 4;

export interface OpRow {
  /**
   * The operating parameter the operation reads and (unless readOnly) writes: a Settings key, per
   * instance for entities with a per-index prefix ("sig" + 0 + "." + "t3").
   */
  readonly setting?: string;
  /** The setting's factory value (declared for every instance when the entity is made). */
  readonly factory?: number | boolean;
  /**
   * A value this board always reads. With `limits.values` equal to [fixed], a PUT of that value is
   * accepted and changes nothing; any other is 400 aErrRange.
   */
  readonly fixed?: number | boolean;
  /** READ | WRITE | RUN: handled by the entity's read / write / action methods. */
  readonly code?: number;
  /** Readable but not settable on this module: its PUT answers 501 aErrUnimplemented. */
  readonly readOnly?: boolean;
  /** What this module accepts beyond the route table (published as is). */
  readonly limits?: OpLimits;
}

export type OpTable<Op extends string> = { readonly [K in Op]?: OpRow };
