// The HAL contract: what the API core asks of a module. Device-side code: no Node APIs.
//
// Every entity is one EntityHal of typed accessors: get/set/run keyed by the entity's own operation
// names (EntityOps), with values already decoded to their type. The API core does all HTTP, JSON and
// range work named in the route table; a HAL answers in device terms and throws ApiError
// (hal/kit/errors.ts) for what only the module can know: a slot that is locked, a channel it lacks...

import type { EntityOps } from './entity-ops';

export type { EntityOps };
export type EntityName = keyof EntityOps;

/** Operations beyond operations.tsv (src/api/route-extensions.ts): a store slot's raw bytes. */
export interface ExtensionOps {
  store: 'slotdata';
}

/** The operations an entity's HAL answers: the contract's and the extensions'. */
export type OpsOf<E extends EntityName> = EntityOps[E] | (E extends keyof ExtensionOps ? ExtensionOps[E] : never);

/**
 * A value as the route's `type` reads it:
 * - u8..u32 / i8..i32: number (signed types may be negative)
 * - bool: boolean
 * - list:u32: number[]
 * - bytes:ipv4 / bytes:mac / bytes:text / bytes:hex: Uint8Array
 * - string (names): string
 * - bytes:raw (store slotdata): Uint8Array, any length
 * Actions and PUT-only routes with an I8 value (`usb/portenable` takes a channel) get a number.
 */
export type HalValue = number | boolean | readonly number[] | Uint8Array | string;

/**
 * What this module accepts for an operation beyond the route table's type and range columns
 * (DECISIONS.md §Self-description): published in the device description and enforced by the HAL
 * from the same data. `readOnly`: the module cannot set it (PUT answers 501, `put` is not published).
 * `min`/`max` are integers (for L32 they bound each entry); `values` lists the accepted integers.
 */
export interface OpLimits {
  readonly readOnly?: boolean;
  readonly min?: number;
  readonly max?: number;
  readonly values?: readonly number[];
}

export interface EntityHal<Op extends string = string> {
  /** Instances of this entity on the module (valid indexes are 0..count-1). */
  readonly count: number;
  /** The module's capability table: false answers 501 aErrUnimplemented. */
  supports(op: Op): boolean;
  /**
   * Exclusive upper bound of a path parameter the route table leaves to the module
   * ({channel}, {slot}); parameters with a fixed range are checked by the API core.
   */
  limit(index: number, param: string): number;
  /** What the module accepts for `op` beyond the route table (null: nothing narrower). */
  limits?(op: Op): OpLimits | null;
  /** Read (GET). `params` are the extra path parameters, already range-checked. */
  get(index: number, op: Op, params: readonly number[]): HalValue;
  /** Set (PUT). `value` is decoded and range-checked against the route's type and range. */
  set(index: number, op: Op, params: readonly number[], value: HalValue): void;
  /** Action (GET of a route whose get code is `none`). */
  run(index: number, op: Op, params: readonly number[]): void;
}

export type ModuleEntities = { readonly [E in EntityName]?: EntityHal<OpsOf<E>> };

export interface ModuleHal {
  /** The module's 32-bit serial number (the {serial_num} of its paths). */
  readonly serialNumber: number;
  /** Entities this module has; one it lacks answers 404 aErrInvalidEntity. */
  readonly entities: ModuleEntities;
  /** The module clock, in milliseconds since the Unix epoch (UTC): envelope timestamps. */
  now(): number;
  /**
   * Called once a response has been handed to the transport. A reset asked for by `system/reset`
   * happens here, after its answer is on its way (DECISIONS.md §Responses).
   */
  afterResponse(): void;
}
