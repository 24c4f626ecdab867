// The base of every device entity: an EntityHal answered from the entity's frozen OpTable. Methods live
// on frozen prototypes (one class per entity, no closure per operation); per-instance state is the few
// fields each subclass declares. An operation is supported exactly when its row says where its value
// comes from, so the capability table (501 aErrUnimplemented), the limits published and the limits
// enforced all come from the same row. The rules and their wording are the kit's (hal/kit/entity-rules.ts),
// shared with the simulator; this class only says what a row can do and where its value lives.

import { CAN_READ, CAN_RUN, CAN_WRITE, cannot, checkSet, enter, publishedLimits, unsupported } from '../kit/entity-rules';
import type { ApiError } from '../kit/errors';
import { asBool, asBytes, asNumber, asString } from '../kit/value-guards';
import type { EntityHal, HalValue, OpLimits, OpsIn, ValueIn, ValueMap } from '../types';
import { READ, RUN, WRITE, type OpRow, type OpTable } from './op-table';
import type { Settings, SettingValue } from './settings';

/** A value that is not an action's void: then it is one of the entity's values (ValueIn<V>). */
function isValue<V, K extends keyof V>(v: V[K]): v is V[K] & ValueIn<V> {
  return v !== undefined;
}

/**
 * `V` is the entity's value map (ValuesOf<'system'>...): get and set are typed per operation by it, the
 * rows' factory and fixed values too (OpTable<V>). A subclass's read/write switch over its operations
 * with any of its values (ValueIn<V>), guarded where a case narrows one. Settings are the erased store
 * (HalValue), each kept in its factory value's type.
 */
export class DeviceEntity<V extends ValueMap> implements EntityHal<V> {
  readonly count: number;
  protected readonly name: string;
  protected readonly ops: OpTable<V>;
  protected readonly settings: Settings;
  /** Settings key prefix: "sig" gives per-instance keys ("sig0.t3"); "sys." one set ("sys.hbint"). */
  private readonly prefix: string;

  constructor(name: string, ops: OpTable<V>, count: number, settings: Settings, prefix: string) {
    this.name = name;
    this.ops = ops;
    this.count = count;
    this.settings = settings;
    this.prefix = prefix;
    for (const op in ops) {
      const row = ops[op]!;
      if (row.factory === undefined) continue;
      for (let i = 0; i < count; i++) settings.define(this.key(i, row.setting!), row.factory);
    }
  }

  /** The Settings key of `setting` for instance `index`. */
  protected key(index: number, setting: string): string {
    const p = this.prefix;
    return p.charCodeAt(p.length - 1) === 46 /* . */ ? p + setting : p + index + '.' + setting;
  }

  supports(op: OpsIn<V>): boolean {
    const row = this.ops[op];
    return !!row && (row.setting !== undefined || row.fixed !== undefined || row.code !== undefined);
  }

  limit(_index: number, _param: string): number {
    return 0;
  }

  limits(op: OpsIn<V>): OpLimits | null {
    const row = this.ops[op];
    if (!row || !this.supports(op)) return null;
    return publishedLimits(this.can(row), row.limits);
  }

  // Typed by the first signature; the second is what runs (a setting or fixed value keeps the type its
  // row and factory value give it, and read() answers its own operations).
  get<K extends OpsIn<V>>(index: number, op: K, params: readonly number[]): V[K];
  get(index: number, op: OpsIn<V>, params: readonly number[]): HalValue | void {
    const row = this.row(index, op);
    if (row.code !== undefined && row.code & READ) return this.read(index, op, params);
    if (row.setting !== undefined) return this.settings.get(this.key(index, row.setting));
    if (row.fixed !== undefined) return row.fixed;
    throw cannot(this.name, op, CAN_READ);
  }

  set<K extends OpsIn<V>>(index: number, op: K, params: readonly number[], value: V[K]): void {
    const row = this.row(index, op);
    // An action's value (void) is never set: the API core sends PUT only to routes with a put code.
    if (!isValue<V, K>(value)) throw cannot(this.name, op, CAN_WRITE);
    checkSet(this.name, index, op, this.can(row), this.limits(op), value);
    if (row.code !== undefined && row.code & WRITE) {
      this.write(index, op, params, value);
    } else if (row.setting !== undefined) {
      const key = this.key(index, row.setting);
      this.apply(index, op, key, this.sameType(this.settings.get(key), value, op));
    } // else a fixed value: its limits accepted exactly that value, nothing changes
  }

  run(index: number, op: OpsIn<V>, params: readonly number[]): void {
    const row = this.row(index, op);
    if (!(this.can(row) & CAN_RUN)) throw cannot(this.name, op, CAN_RUN);
    this.action(index, op, params);
  }

  /** Put instance hardware in its saved state (boot and soft reset). */
  boot(): void { /* entities without outputs have nothing to open */ }

  /** READ rows. */
  protected read(_index: number, op: OpsIn<V>, _params: readonly number[]): ValueIn<V> {
    throw this.unsupported(op);
  }

  /** WRITE rows, after the limits are checked. */
  protected write(_index: number, op: OpsIn<V>, _params: readonly number[], _value: ValueIn<V>): void {
    throw this.unsupported(op);
  }

  /** RUN rows. */
  protected action(_index: number, op: OpsIn<V>, _params: readonly number[]): void {
    throw this.unsupported(op);
  }

  /**
   * Keep `value` in setting `key` and apply it (changed). When the hardware refuses it, the setting
   * gets its old value back and that is applied again: a failed write changes nothing.
   */
  protected apply(index: number, op: OpsIn<V>, key: string, value: SettingValue): void {
    const s = this.settings;
    const old = s.get(key);
    s.set(key, value);
    try {
      this.changed(index, op);
    } catch (e) {
      s.set(key, old);
      try { this.changed(index, op); } catch { /* the old state cannot be made either: the output stays off */ }
      throw e;
    }
  }

  /** A setting row was written: apply it to the hardware. */
  protected changed(_index: number, _op: OpsIn<V>): void { /* settings that only take effect after a reset */ }

  protected unsupported(op: string): ApiError {
    return unsupported(this.name, op);
  }

  /** CAN_* bits of a row: a fixed value is settable only to itself, when its limits say so. */
  private can(row: OpRow): number {
    const code = row.code ?? 0;
    let can = code & RUN ? CAN_RUN : 0;
    if (code & READ || row.setting !== undefined || row.fixed !== undefined) can |= CAN_READ;
    if (!row.readOnly && (code & WRITE || row.setting !== undefined || (row.fixed !== undefined && row.limits !== undefined))) {
      can |= CAN_WRITE;
    }
    return can;
  }

  private row(index: number, op: OpsIn<V>): OpRow {
    // The core checks the index against count; this guards direct callers.
    enter(this.name, index, this.count, op, this.supports(op));
    return this.ops[op]!;
  }

  /** A HAL caller handing the wrong JavaScript type is a bug (aErrParam): the setting keeps its type. */
  private sameType(current: SettingValue, value: HalValue, what: string): SettingValue {
    if (typeof current === 'number') return asNumber(value, what);
    if (typeof current === 'boolean') return asBool(value, what);
    if (typeof current === 'string') return asString(value, what);
    return asBytes(value, what);
  }
}
Object.freeze(DeviceEntity.prototype);
