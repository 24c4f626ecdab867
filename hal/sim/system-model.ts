// The system entity's simulated hardware: the supply the module is fed from (input voltage droops
// with the current the loads draw through the converters), the board temperature with its lifetime
// extremes, and the power budget. system.ts wires these into the system entity.

import type { SimContext } from './context';
import type { RegisterFile } from './registers';
import { noise, slot } from './values';

/** Supply the module is fed from, and what it can deliver. */
const SUPPLY_UV = 12_000_000;
const SUPPLY_OHM = 0.04;
export const SUPPLY_MAX_MW = 100_000;
const QUIESCENT_MW = 350;
const EFFICIENCY = 0.9;
/** powerlimitstate bits. */
const LIMIT_BY_SETTING = 1 << 0;
const LIMIT_BY_SUPPLY = 1 << 1;
const LIMIT_EXCEEDED = 1 << 2;

interface Extremes { min: number; max: number }

export class SystemPhysics {
  /** Lifetime temperature extremes (they survive power cycles: kept with the saved settings). */
  extremes: Extremes;

  /** @param load power the module's outputs deliver, mW */
  constructor(private readonly ctx: SimContext, private readonly regs: RegisterFile, private readonly load: () => number) {
    this.extremes = ctx.persist.temperature ?? { min: this.temperature(), max: this.temperature() };
    ctx.onAdvance(() => this.trackExtremes());
  }

  private trackExtremes(): void {
    const now = this.temperature();
    const e = this.extremes;
    if (now < e.min || now > e.max) {
      this.extremes = { min: Math.min(e.min, now), max: Math.max(e.max, now) };
      this.ctx.persist.temperature = this.extremes;
    }
  }

  inputVoltage(): number {
    return Math.round(SUPPLY_UV - this.inputCurrentAt(SUPPLY_UV) * SUPPLY_OHM + 5000 * noise(this.ctx.serial, 1, slot(this.ctx.wall())));
  }

  /** I = P / V with P the load through the converters; uA = mW * 1e9 / uV. */
  inputCurrentAt(uV: number): number {
    return Math.round((((this.load() + QUIESCENT_MW) / EFFICIENCY) * 1e9) / uV);
  }

  temperature(): number {
    const t = this.ctx.wall() / 1000;
    return Math.round(38_000_000 + 2_000_000 * Math.sin((2 * Math.PI * t) / 600) + 40 * this.load() +
      50_000 * noise(this.ctx.serial, 2, slot(this.ctx.wall())));
  }

  budget(): number {
    return Math.min(this.regs.num(0, 'powerlimitmax'), SUPPLY_MAX_MW);
  }

  powerLimitState(): number {
    let s = this.regs.num(0, 'powerlimitmax') < SUPPLY_MAX_MW ? LIMIT_BY_SETTING : LIMIT_BY_SUPPLY;
    if (this.load() > this.budget()) s |= LIMIT_EXCEEDED;
    return s;
  }
}
Object.freeze(SystemPhysics.prototype);

/** Settings that take effect only after save and reset (latched at boot), and a reset asked for. */
export class BootState {
  offset = 0;
  router = 0;
  /** A reset was asked for and happens in afterResponse(). */
  pending = false;

  constructor(private readonly regs: RegisterFile, ctx: SimContext) {
    this.latch();
    ctx.onReboot(() => this.latch());
  }

  private latch(): void {
    this.offset = this.regs.num(0, 'modulesoftwareoffset');
    this.router = this.regs.num(0, 'router');
  }

  takeReset(): boolean {
    const was = this.pending;
    this.pending = false;
    return was;
  }
}
Object.freeze(BootState.prototype);
