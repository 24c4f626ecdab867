// Plain registers: the settable state of an entity, one map per instance, with factory defaults from a
// table. A register not written since the last reset reads its default, so "factory defaults" is just
// "forget what was written". Keys are the operation plus its path parameters ("flagmode/3").
// Entities keep their coupled state here too (port enables...), so save/reset/userconfig treat every
// setting the same way; behaviour code reads registers and derives the rest.

import type { HalValue } from '../types';
import { asBool, asNumber } from '../kit/value-guards';

export type Default = HalValue | ((index: number, params: readonly number[]) => HalValue);
export interface RegisterTable { readonly [op: string]: Default }

/**
 * An entity's register defaults, each typed by its operation's value (V: ValuesOf<'rail'>...), so a
 * boolean register cannot default to 0. Keys that are no operation of the entity (internal state)
 * take any HalValue.
 */
export type TypedRegisterTable<V> = { readonly [K in keyof V]?: Exclude<V[K], void> | ((index: number, params: readonly number[]) => Exclude<V[K], void>) } & RegisterTable;

export type Settings = { [key: string]: HalValue };

export function keyOf(op: string, params: readonly number[]): string {
  return params.length ? op + '/' + params.join('/') : op;
}

function opOf(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? key : key.slice(0, slash);
}

function copy(v: HalValue): HalValue {
  if (v instanceof Uint8Array) return v.slice();
  if (Array.isArray(v)) return v.slice();
  return v;
}

export class RegisterFile {
  private readonly values: Map<string, HalValue>[] = [];

  /**
   * @param volatile registers that are state, not settings: never saved, always back to default on reset.
   */
  constructor(
    readonly entity: string,
    readonly count: number,
    private readonly table: RegisterTable,
    private readonly volatile: readonly string[] = [],
  ) {
    for (let i = 0; i < count; i++) this.values.push(new Map());
  }

  has(op: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.table, op);
  }

  read(index: number, op: string, params: readonly number[] = []): HalValue {
    const v = this.values[index].get(keyOf(op, params));
    if (v !== undefined) return copy(v);
    return copy(this.defaultOf(index, op, params));
  }

  defaultOf(index: number, op: string, params: readonly number[] = []): HalValue {
    const d = this.table[op];
    if (d === undefined) throw new Error(`${this.entity}: no register ${op}`);
    return typeof d === 'function' ? d(index, params) : d;
  }

  num(index: number, op: string, params: readonly number[] = []): number {
    return asNumber(this.read(index, op, params), `${this.entity}/${op}`);
  }

  bool(index: number, op: string, params: readonly number[] = []): boolean {
    return asBool(this.read(index, op, params), `${this.entity}/${op}`);
  }

  write(index: number, op: string, params: readonly number[], value: HalValue): void {
    this.values[index].set(keyOf(op, params), copy(value));
  }

  /** Back to the factory default (forget the written value). */
  forget(index: number, op: string, params: readonly number[] = []): void {
    this.values[index].delete(keyOf(op, params));
  }

  /** The settings of one instance that differ from factory: what save persists. */
  settings(index: number): Settings {
    const out: Settings = {};
    this.values[index].forEach((v, key) => {
      if (this.volatile.indexOf(opOf(key)) < 0) out[key] = copy(v);
    });
    return out;
  }

  /** Replace one instance's registers by saved settings (unknown keys from an older save are dropped). */
  load(index: number, settings: Settings | undefined): void {
    const map = this.values[index];
    map.clear();
    if (!settings) return;
    for (const key of Object.keys(settings)) {
      const op = opOf(key);
      if (this.has(op) && this.volatile.indexOf(op) < 0) map.set(key, copy(settings[key]));
    }
  }

  clear(index: number): void {
    this.values[index].clear();
  }
}
