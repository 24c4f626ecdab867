// digital: one ECMA-419 Digital per profile pin, reopened when its configuration changes (an io instance
// has one mode for life). Configurations a plain GPIO can do: 0 input (with the chip's weak pull-down: an
// unconnected pin reads 0), 1 output, 4 high-Z (input with no pull); the servo and link variants (2, 3,
// 5..10) need other hardware (400 aErrRange, as published). Every open sets the pull, whatever the pin
// had before: on the Pico, Digital.Input leaves the pulls as they are (modules/io/digital/pico/
// digitalbank.c:187-189), the RP2040's reset pull-down included, and only a close clears them (:300); so
// a high-Z pin opened for the first time since boot is opened and closed once first.
// Writing state/value/stateall needs an output: on an input it is 409 aErrMode (set configuration 1).

import Digital from 'embedded:io/digital';
import { ApiError, aErrIO, aErrMode } from '../kit/errors';
import { deepFreeze } from '../../util/freeze';
import type { EntityOps, OpLimits, ValueOf, ValuesOf } from '../types';
import { DeviceEntity } from './entity';
import { READ, WRITE, type OpTable } from './op-table';
import type { Settings } from './settings';
import { asBool, asNumber } from '../kit/value-guards';

type Op = EntityOps['digital'];
const OUTPUT = 1;
const HIGH_Z = 4;

const OPS: OpTable<ValuesOf<'digital'>> = deepFreeze({
  configuration: { setting: 'cfg', factory: 0, limits: { values: [0, OUTPUT, 4] } },
  state: { code: READ | WRITE },
  value: { code: READ | WRITE, limits: { min: 0, max: 1 } },
  stateall: { code: READ | WRITE }, // limits: one bit per pin (per board, below)
});

export class DigitalEntity extends DeviceEntity<ValuesOf<'digital'>> {
  private readonly pins: readonly number[];
  private readonly io: (Digital | null)[];
  /** What each output was last set to (an output pin is not read back). */
  private readonly level: number[];
  private readonly allBits: OpLimits;

  constructor(s: Settings, pins: readonly number[]) {
    super('digital', OPS, pins.length, s, 'dio');
    this.pins = pins;
    this.io = [];
    this.level = [];
    for (let i = 0; i < pins.length; i++) { this.io.push(null); this.level.push(0); }
    this.allBits = Object.freeze({ min: 0, max: Math.pow(2, pins.length) - 1 });
  }

  override limits(op: Op): OpLimits | null {
    return op === 'stateall' ? this.allBits : super.limits(op);
  }

  override boot(): void {
    for (let i = 0; i < this.pins.length; i++) this.open(i);
  }

  protected override read(i: number, op: Op): ValueOf<'digital'> {
    if (op === 'state') return this.level1(i) === 1;
    if (op === 'value') return this.level1(i);
    let bits = 0;
    for (let k = 0; k < this.pins.length; k++) bits |= this.level1(k) << k;
    return bits >>> 0;
  }

  protected override write(i: number, op: Op, _p: readonly number[], v: ValueOf<'digital'>): void {
    if (op === 'state') return this.drive(i, asBool(v, 'state') ? 1 : 0);
    if (op === 'value') return this.drive(i, asNumber(v, 'value') ? 1 : 0);
    // stateall sets the outputs only; inputs keep reading their pins (bits for them are ignored).
    const bits = asNumber(v, 'stateall');
    for (let k = 0; k < this.pins.length; k++) if (this.isOutput(k)) this.drive(k, (bits >>> k) & 1);
  }

  protected override changed(i: number): void {
    this.open(i);
  }

  private isOutput(i: number): boolean {
    return this.settings.num(this.key(i, 'cfg')) === OUTPUT;
  }

  private open(i: number): void {
    const old = this.io[i];
    this.io[i] = null;
    if (old) old.close();
    const pin = this.pins[i];
    const cfg = this.settings.num(this.key(i, 'cfg'));
    try {
      if (cfg === HIGH_Z && !old) new Digital({ pin, mode: Digital.Input }).close(); // clears a pull kept from before
      const mode = cfg === OUTPUT ? Digital.Output : cfg === HIGH_Z ? Digital.Input : Digital.InputPullDown;
      const d = new Digital({ pin, mode });
      this.io[i] = d;
      if (this.isOutput(i)) d.write(this.level[i] ? 1 : 0);
    } catch (e) {
      throw new ApiError(aErrIO, `digital ${i} (pin ${pin}): ${(e as Error).message}`);
    }
  }

  private pin(i: number): Digital {
    if (!this.io[i]) this.open(i);
    return this.io[i]!;
  }

  private level1(i: number): number {
    return this.isOutput(i) ? this.level[i] : this.pin(i).read();
  }

  private drive(i: number, v: number): void {
    if (!this.isOutput(i)) throw new ApiError(aErrMode, `digital ${i} is not an output: set digital/${i}/configuration to 1 first`);
    try {
      this.pin(i).write(v ? 1 : 0);
    } catch (e) {
      if (e instanceof ApiError) throw e;
      throw new ApiError(aErrIO, `digital ${i} (pin ${this.pins[i]}): ${(e as Error).message}`);
    }
    this.level[i] = v; // only once the pin has it
  }
}
Object.freeze(DigitalEntity.prototype);
