// The base of every device entity: an EntityHal answered from the entity's frozen OpTable. Methods live
// on frozen prototypes (one class per entity, no closure per operation); per-instance state is the few
// fields each subclass declares. An operation is supported exactly when its row says where its value
// comes from, so the capability table (501 aErrUnimplemented), the limits published and the limits
// enforced all come from the same row.

import { ApiError, aErrIndexRange, aErrUnimplemented } from '../kit/errors';
import type { EntityHal, HalValue, OpLimits, OpsIn, ValueMap } from '../types';
import { checkLimits, READ_ONLY } from '../kit/limits';
import { READ, RUN, WRITE, type OpRow, type OpTable } from './op-table';
import type { Settings, SettingValue } from './settings';
import { asBool, asBytes, asNumber, asString } from '../kit/value-guards';

/**
 * `V` is the entity's value map (ValuesOf<'system'>...): get and set are typed per operation by it. The
 * subclasses' read/write/action and the settings are erased (HalValue), each guarded where it narrows.
 */
export class DeviceEntity<V extends ValueMap> implements EntityHal<V> {
  readonly count: number;
  protected readonly name: string;
  protected readonly ops: OpTable<OpsIn<V>>;
  protected readonly settings: Settings;
  /** Settings key prefix: "sig" gives per-instance keys ("sig0.t3"); "sys." one set ("sys.hbint"). */
  private readonly prefix: string;

  constructor(name: string, ops: OpTable<OpsIn<V>>, count: number, settings: Settings, prefix: string) {
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
    if (row.code === RUN) return null;
    return this.writable(row) ? row.limits ?? null : READ_ONLY;
  }

  // Typed by the first signature; the second is what runs (a setting or fixed value keeps the type its
  // row and factory value give it, and read() answers its own operations).
  get<K extends OpsIn<V>>(index: number, op: K, params: readonly number[]): V[K];
  get(index: number, op: OpsIn<V>, params: readonly number[]): HalValue | void {
    const row = this.row(index, op);
    if (row.code !== undefined && row.code & READ) return this.read(index, op, params);
    if (row.setting !== undefined) return this.settings.get(this.key(index, row.setting));
    if (row.fixed !== undefined) return row.fixed;
    throw this.unsupported(op);
  }

  set<K extends OpsIn<V>>(index: number, op: K, params: readonly number[], value: V[K]): void {
    const row = this.row(index, op);
    if (value === undefined) throw this.unsupported(op); // an action's (void) value is never set
    if (!this.writable(row)) throw new ApiError(aErrUnimplemented, `${this.name}/${op} is read-only on this module`);
    checkLimits(`${this.name}/${index}/${op}`, this.limits(op), value);
    if (row.code !== undefined && row.code & WRITE) {
      this.write(index, op, params, value);
    } else if (row.setting !== undefined) {
      const key = this.key(index, row.setting);
      this.settings.set(key, this.sameType(this.settings.get(key), value, op));
      this.changed(index, op);
    } // else a fixed value: checkLimits accepted exactly that value, nothing changes
  }

  run(index: number, op: OpsIn<V>, params: readonly number[]): void {
    const row = this.row(index, op);
    if (row.code === undefined || !(row.code & RUN)) throw this.unsupported(op);
    this.action(index, op, params);
  }

  /** Put instance hardware in its saved state (boot and soft reset). */
  boot(): void { /* entities without outputs have nothing to open */ }

  /** READ rows. */
  protected read(_index: number, op: OpsIn<V>, _params: readonly number[]): HalValue {
    throw this.unsupported(op);
  }

  /** WRITE rows, after the limits are checked. */
  protected write(_index: number, op: OpsIn<V>, _params: readonly number[], _value: HalValue): void {
    throw this.unsupported(op);
  }

  /** RUN rows. */
  protected action(_index: number, op: OpsIn<V>, _params: readonly number[]): void {
    throw this.unsupported(op);
  }

  /** A setting row was written: apply it to the hardware. */
  protected changed(_index: number, _op: OpsIn<V>): void { /* settings that only take effect after a reset */ }

  protected unsupported(op: string): ApiError {
    return new ApiError(aErrUnimplemented, `${this.name}/${op} is not available on this board`);
  }

  private writable(row: OpRow): boolean {
    if (row.readOnly) return false;
    if (row.code !== undefined && row.code & WRITE) return true;
    return row.setting !== undefined || (row.fixed !== undefined && row.limits !== undefined);
  }

  private row(index: number, op: OpsIn<V>): OpRow {
    // The core checks the index against count; this guards direct callers.
    if (!(index >= 0 && index < this.count)) {
      throw new ApiError(aErrIndexRange, `${this.name} index ${index} out of range 0..${this.count - 1}`);
    }
    const row = this.ops[op];
    if (!row || !this.supports(op)) throw this.unsupported(op);
    return row;
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
