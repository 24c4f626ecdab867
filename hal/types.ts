// The HAL contract: what the API core asks of a module. Device-side code: no Node APIs.
//
// Every entity is one EntityHal of typed accessors: get/set/run keyed by the entity's own operation
// names, each value of its operation's type (EntityValues, generated from spec/operations.tsv by make
// gen). The API core does all HTTP, JSON and range work named in the route table and calls the erased
// form (EntityHal with string operations and HalValue values); a HAL answers in device terms and throws
// ApiError (hal/kit/errors.ts) for what only the module can know: a slot that is locked, a channel it lacks...

import type { EntityOps } from './entity-ops';
import type { EntityValues } from './entity-values';

export type { EntityOps, EntityValues };
export type EntityName = keyof EntityOps;

/** Operations beyond operations.tsv (src/api/route/route-extensions.ts), with their values: a store slot's raw bytes. */
export interface ExtensionValues {
  store: { slotdata: Uint8Array };
}
export type ExtensionOps = { [E in keyof ExtensionValues]: keyof ExtensionValues[E] };

/** Every entity's operations with their values: the contract's (EntityValues) and the extensions'. */
export interface AllValues extends EntityValues {
  store: EntityValues['store'] & ExtensionValues['store'];
}

/** The value of each operation entity `E`'s HAL answers. */
export type ValuesOf<E extends EntityName> = AllValues[E];

/** The operation names of a value map. */
export type OpsIn<V> = keyof V & string;

/** The operations entity `E`'s HAL answers. */
export type OpsOf<E extends EntityName> = OpsIn<ValuesOf<E>>;

/** Any value of a value map's operations (less an action's void): what a switch over them reads or writes. */
export type ValueIn<V> = Exclude<V[keyof V], void>;

/** Any value of entity `E`'s operations. */
export type ValueOf<E extends EntityName> = ValueIn<ValuesOf<E>>;

/** The operations of entity `E` whose value is a `T` (its boolean ones, its number ones...). */
export type OpsWithValue<E extends EntityName, T> = { [K in OpsOf<E>]: ValuesOf<E>[K] extends T ? K : never }[OpsOf<E>];

/**
 * Any value as the route's `type` reads it (EntityValues has each operation's own):
 * - u8..u32 / i8..i32: number (signed types may be negative)
 * - bool: boolean
 * - list:u32: readonly number[]
 * - bytes:ipv4 / bytes:mac / bytes:text / bytes:hex: Uint8Array
 * - string (names): string
 * - bytes:raw (store slotdata): Uint8Array, any length
 * Actions carry no value (void in EntityValues); a PUT-only route with an I8 code and no type would
 * take a number (the generator's rule; `usb/portenable` has type u8 and takes a channel).
 */
export type HalValue = number | boolean | readonly number[] | Uint8Array | string;

/**
 * What this module accepts for an operation beyond the route table's type and range columns
 * (docs/api.md §What a module has and accepts): published in the device description and enforced by the HAL
 * from the same data. `readOnly`: the module cannot set it (PUT answers 501, `put` is not published).
 * `min`/`max` are integers (for L32 they bound each entry); `values` lists the accepted integers.
 */
export interface OpLimits {
  readonly readOnly?: boolean;
  readonly min?: number;
  readonly max?: number;
  readonly values?: readonly number[];
  /**
   * `values` as JSON (`[0,2,4]`), made with the list where it is frozen (hal/kit/value-limits.ts
   * oneOfValues): a long list is then published without a join per description read, which on a
   * module costs two slots a value.
   */
  readonly valuesJson?: string;
}

/** What every value map is: operation name -> its value (void for an action). */
export type ValueMap = { readonly [op: string]: HalValue | void };

/** The erased value map: any operation name, any value. The API core sees every entity this way. */
export interface ErasedValues {
  readonly [op: string]: HalValue;
}

/**
 * One entity's accessors, typed by its value map `V` (op -> value type; void for actions). Without
 * `V`, the erased form the API core calls with a route's operation name and a decoded HalValue.
 */
export interface EntityHal<V = ErasedValues> {
  /** Instances of this entity on the module (valid indexes are 0..count-1). */
  readonly count: number;
  /** The module's capability table: false answers 501 aErrUnimplemented. */
  supports(op: OpsIn<V>): boolean;
  /**
   * Exclusive upper bound of a path parameter the route table leaves to the module
   * ({channel}, {slot}); parameters with a fixed range are checked by the API core.
   */
  limit(index: number, param: string): number;
  /** What the module accepts for `op` beyond the route table (null: nothing narrower). */
  limits?(op: OpsIn<V>): OpLimits | null;
  /** Read (GET). `params` are the extra path parameters, already range-checked. */
  get<K extends OpsIn<V>>(index: number, op: K, params: readonly number[]): V[K];
  /** Set (PUT). `value` is decoded and range-checked against the route's type and range. */
  set<K extends OpsIn<V>>(index: number, op: K, params: readonly number[], value: V[K]): void;
  /** Action (GET of a route whose get code is `none`). */
  run(index: number, op: OpsIn<V>, params: readonly number[]): void;
}

/** The HAL of entity `E`, typed by its operations' values. */
export type HalOf<E extends EntityName> = EntityHal<ValuesOf<E>>;

export type ModuleEntities = { readonly [E in EntityName]?: HalOf<E> };

/** What GET …/firmware answers (docs/firmware.md). */
export interface FirmwareStatus {
  /** The running firmware: packed version (hal/kit/version.ts) and build. */
  readonly version: number;
  readonly build: number;
  /** The partition or slot it runs from ('ota_0', 'sim-a'...). */
  readonly slot: string;
  /** false while a new firmware is on trial: a restart before it confirms itself returns to `rollback`. */
  readonly confirmed: boolean;
  /** The packed version a rollback would return to, or -1 when there is none. */
  readonly rollback: number;
}

/**
 * SHA-256 fed in pieces (the SDK's crypt Digest on a module, node:crypto in the simulator): a firmware
 * image as it arrives, the parts of an HTTP Digest. Text is fed as its UTF-8 bytes.
 */
export interface Sha256 {
  write(bytes: Uint8Array | string): void;
  close(): Uint8Array;
}

/** One image being written into the slot that is not running. */
export interface FirmwareWriter {
  /** Image bytes in order; throws ApiError: aErrParam for an image for another board (its header), aErrWrite/aErrIO for the flash. */
  write(bytes: Uint8Array): void;
  /** Every byte written: check the image is whole and make it the next boot; its packed version. Throws ApiError. */
  complete(): number;
  /** Abandon the image: the running firmware stays the one that boots. */
  abort(): void;
  /** Once the answer is sent: restart into the new image. */
  restart(): void;
}

/** A module's firmware: what runs, and how a new image is written (docs/firmware.md). */
/** What a board's firmware HAL is made with (hal/device/firmware/: esp32.ts, none.ts). */
export interface FirmwareOptions {
  /** The running firmware's packed version and build (the manifest's config.firmware). */
  readonly version: number;
  readonly build: number;
  /** Restart once the answer has gone (src/device/app.ts: after the server's flush). */
  readonly restart: () => void;
}

export interface FirmwareHal {
  status(): FirmwareStatus;
  /** The largest image the other slot takes, bytes. */
  readonly capacity: number;
  /** Start an image of `length` bytes; throws ApiError (501 where this board cannot, with why). */
  begin(length: number): FirmwareWriter;
  sha256(): Sha256;
  /** Optional: the module has answered a request (a firmware on trial confirms itself). */
  served?(): void;
}

export interface ModuleHal {
  /** Its firmware and the way to a new one; absent: GET and PUT …/firmware answer 501. */
  readonly firmware?: FirmwareHal;
  /** false while it does not serve (the simulator's module restarting into an image that never starts). */
  serving?(): boolean;
  /** The module's 32-bit serial number (the {serial_num} of its paths). */
  readonly serialNumber: number;
  /** What the module says it is (the simulator's profile, the device's board): the description's `name`. */
  readonly name?: string;
  /** Entities this module has; one it lacks answers 404 aErrInvalidEntity. */
  readonly entities: ModuleEntities;
  /** The module clock, in milliseconds since the Unix epoch (UTC): envelope timestamps. */
  now(): number;
  /**
   * Called once a response has been handed to the transport. A reset asked for by `system/reset`
   * happens here, after its answer is on its way (docs/api.md §Answers).
   */
  afterResponse(): void;
  /**
   * Restarts of the module counted for `cause` (watchdog, power, update, reset, crash): GET /metrics'
   * brainstem_restarts_total. Absent where a module does not count them (the simulator's).
   */
  restartCount?(cause: string): number;
}
