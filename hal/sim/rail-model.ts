// The physics of the rails: one operating point solved from the settings and the simulated load
// (CC, CV, CP, CR, clamped by the limits), the meters that read it with a little noise, the heat it
// makes, and the fault bits latched until clearfaults. rail.ts wires these into the rail entity.

import { ERR_RAIL_FAULT } from '../kit/error-word';
import type { SimContext } from './context';
import type { RailSpec } from './profile';
import type { RegisterFile } from './registers';
import { noise, slot } from './values';

// operationalstate bits (operations.tsv notes)
const ST_ENABLED = 1 << 1;
const ST_FAULT = 1 << 2;
export const FAULT_OVERVOLTAGE = 1 << 16;
export const FAULT_UNDERVOLTAGE = 1 << 17;
export const FAULT_OVERCURRENT = 1 << 18;
export const FAULT_OVERPOWER = 1 << 19;
export const FAULT_OVERTEMPERATURE = 1 << 21;

const MODE_CC = 0;
export const MODE_CV = 1;
const MODE_CP = 2;
const MODE_CR = 3;

const AMBIENT_UC = 27_000_000;
const KELVIN_PER_WATT_UC = 1_500_000; // rail heats 1.5 °C per watt delivered
const OVERTEMPERATURE_UC = 125_000_000;
/** An open circuit reads as the largest resistance an i32 holds. */
export const OPEN_CIRCUIT_MOHM = 2147483647;

interface Point {
  v: number; // uV
  i: number; // uA
  faults: number;
  mode: number; // the mode actually in force (a CV rail in current limit is in CC)
}

interface Settings {
  enable: boolean; mode: number; vset: number; iset: number; pset: number; rset: number;
  ilimit: number; vmin: number; vmax: number; plimit: number; load: number;
}

/** The operating point of one rail: what the mode regulates, then clamped by vmax, ilimit, plimit. */
export function solve(r: Settings): Point {
  let mode = (r.mode >> 4) & 3;
  if (!r.enable) return { v: 0, i: 0, faults: 0, mode };
  // Load seen by the output, ohm. CR mode presents the resistance setpoint instead (electronic load).
  const ohm = (mode === MODE_CR ? Math.max(1, r.rset) : Math.max(1, r.load)) / 1000;
  let v: number;
  if (mode === MODE_CC) v = r.iset * ohm;
  else if (mode === MODE_CP) v = Math.sqrt(r.pset * 1e-3 * ohm) * 1e6;
  else v = r.vset;
  let faults = 0;
  if (v > r.vmax) {
    v = r.vmax;
    faults |= FAULT_OVERVOLTAGE;
    mode = MODE_CV;
  }
  let i = v / ohm;
  if (i > r.ilimit) {
    i = Math.max(0, r.ilimit);
    v = i * ohm;
    faults |= FAULT_OVERCURRENT;
    mode = MODE_CC;
  }
  if ((v * i) / 1e9 > r.plimit) {
    const p = Math.max(0, r.plimit);
    v = Math.sqrt(p * 1e-3 * ohm) * 1e6;
    i = v / ohm;
    faults |= FAULT_OVERPOWER;
    mode = MODE_CP;
  }
  if (r.vmin > 0 && v < r.vmin) faults |= FAULT_UNDERVOLTAGE;
  return { v, i, faults, mode };
}

/** The rails' simulated hardware: loads, latched faults, and what the meters read. */
export class RailPhysics {
  private readonly loads: number[] = [];
  private readonly latched: number[] = [];

  constructor(private readonly ctx: SimContext, private readonly regs: RegisterFile, private readonly spec: (i: number) => RailSpec) {
    this.powerUp();
    ctx.onReboot(() => this.powerUp());
    ctx.onAdvance(() => this.latchFaults());
  }

  private powerUp(): void {
    for (let i = 0; i < this.regs.count; i++) {
      this.loads[i] = this.loads[i] ?? this.spec(i).loadMilliohm;
      this.latched[i] = 0;
    }
  }

  private latchFaults(): void {
    for (let i = 0; i < this.regs.count; i++) {
      const f = this.faultsNow(i);
      if (f & ~this.latched[i]) this.ctx.flagError(ERR_RAIL_FAULT, `rail ${i} fault 0x${f.toString(16)}`);
      this.latched[i] |= f;
    }
  }

  point(i: number): Point {
    const regs = this.regs;
    return solve({
      enable: regs.bool(i, 'enable'), mode: regs.num(i, 'operationalmode'),
      vset: regs.num(i, 'voltagesetpoint'), iset: regs.num(i, 'currentsetpoint'),
      pset: regs.num(i, 'powersetpoint'), rset: regs.num(i, 'resistancesetpoint'),
      ilimit: regs.num(i, 'currentlimit'), vmin: regs.num(i, 'voltageminlimit'),
      vmax: regs.num(i, 'voltagemaxlimit'), plimit: regs.num(i, 'powerlimit'), load: this.loads[i],
    });
  }

  /** What the meters read: the operating point with a little measurement noise, in integer units. */
  measured(i: number): { v: number; i: number; p: Point } {
    const p = this.point(i);
    const s = slot(this.ctx.wall());
    const v = p.v === 0 ? 0 : Math.max(0, Math.round(p.v * (1 + 2e-5 * noise(this.ctx.serial, 100 + i, s))));
    const c = p.i === 0 ? 0 : Math.max(0, Math.round(p.i * (1 + 5e-5 * noise(this.ctx.serial, 200 + i, s))));
    return { v, i: c, p };
  }

  powerMw(i: number): number {
    const m = this.measured(i);
    return Math.round((m.v * m.i) / 1e9);
  }

  resistance(i: number): number {
    const m = this.measured(i);
    return m.i > 0 ? Math.min(OPEN_CIRCUIT_MOHM, Math.round((m.v * 1000) / m.i)) : OPEN_CIRCUIT_MOHM;
  }

  temperature(i: number): number {
    return Math.round(AMBIENT_UC + KELVIN_PER_WATT_UC * (this.powerMw(i) / 1000) + 50_000 * noise(this.ctx.serial, 300 + i, slot(this.ctx.wall())));
  }

  private faultsNow(i: number): number {
    return this.point(i).faults | (this.temperature(i) > OVERTEMPERATURE_UC ? FAULT_OVERTEMPERATURE : 0);
  }

  private hardware(i: number, v: number): number {
    const hw = this.regs.num(i, 'operationalmode') & 0x0f;
    // auto picks the linear stage at low voltage (low noise) and the switcher above 3.3 V (efficiency)
    return hw !== 0 ? hw : v <= 3_300_000 ? 1 : 2;
  }

  operationalState(i: number): number {
    const p = this.point(i);
    const en = this.regs.bool(i, 'enable');
    let st = this.latched[i];
    if (st) st |= ST_FAULT;
    if (en) st |= ST_ENABLED;
    st |= this.hardware(i, p.v) << 8;
    st |= p.mode << 24;
    return st >>> 0;
  }

  clearFaults(i: number): void {
    this.latched[i] = 0;
  }

  setLoad(rail: number, milliohm: number): void {
    this.loads[rail] = Math.max(1, milliohm);
  }

  /** Power delivered by all rails, mW. */
  totalPower(): number {
    let sum = 0;
    for (let i = 0; i < this.regs.count; i++) sum += this.powerMw(i);
    return sum;
  }
}
Object.freeze(RailPhysics.prototype);
