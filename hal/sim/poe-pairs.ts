// The physics of power over ethernet, per pair: 1/2 (0) and 3/4 (1). As a PSE the module detects a
// powered device per pair, classifies it and powers it within the class budget; as a PD it is fed on
// pair 0. Power is voltage x current per pair, totals are sums, energy accumulates with simulated time.
// poe.ts wires these into the poe entity.

import type { SimContext } from './context';
import type { RegisterFile } from './registers';
import { noise, slot } from './values';

const MODE_OFF = 0;
export const MODE_PSE = 1;
const MODE_PD = 2;
const MODE_AUTO = 3;
const STATE_OFF = 0;
const STATE_PSE = 1;
const STATE_PD = 2;
const DETECT_UNKNOWN = 0;
const DETECT_OPEN = 2;
const DETECT_VALID = 5;
const PAIRS = 2;
const PSE_UV = 53_500_000;
const PD_FEED_UV = 48_000_000;
const PD_OWN_LOAD_MW = 2_500; // what this module draws when it is the powered device
const PAIR_OHM = 0.2; // cable loop resistance per pair
const SIGNATURE_MOHM = 25_000_000; // 25 kOhm detection signature
const SIGNATURE_NF = 100;
const OPEN_MOHM = 2147483647;
/** Budget per class code (1..5 = class 0..4, 6..9 = class 5..8; higher codes as class 8), mW. */
const CLASS_BUDGET_MW = [0, 15_400, 4_000, 7_000, 15_400, 30_000, 45_000, 60_000, 75_000, 90_000];

/** The powered device on each pair (null = nothing): class code it asks for and what it would draw. */
const DEVICES: readonly ({ requestedClass: number; loadMw: number } | null)[] = [{ requestedClass: 5, loadMw: 12_000 }, null];

export class PoePairs {
  /** Energy, mWh: per pair and a total of its own (setting one does not move the others). */
  pairEnergy: number[][] = [];
  totalEnergy: number[] = [];
  private last: number;

  constructor(private readonly ctx: SimContext, private readonly regs: RegisterFile) {
    this.last = ctx.wall();
    this.powerUp();
    ctx.onReboot(() => this.powerUp());
    ctx.onAdvance((t) => this.accumulate(t));
  }

  private powerUp(): void {
    this.pairEnergy = [];
    this.totalEnergy = [];
    for (let i = 0; i < this.regs.count; i++) {
      this.pairEnergy.push([0, 0]);
      this.totalEnergy.push(0);
    }
    this.last = this.ctx.wall();
  }

  private accumulate(t: number): void {
    const h = (t - this.last) / 3_600_000;
    this.last = t;
    if (h <= 0) return;
    for (let i = 0; i < this.regs.count; i++) {
      for (let p = 0; p < PAIRS; p++) this.pairEnergy[i][p] += this.power(i, p) * h;
      this.totalEnergy[i] += this.total(i) * h;
    }
  }

  private enabled(i: number, p: number): boolean {
    return this.regs.bool(i, 'pairenabled', [p]);
  }

  private detected(i: number): boolean {
    for (let p = 0; p < PAIRS; p++) if (this.enabled(i, p) && DEVICES[p]) return true;
    return false;
  }

  powerState(i: number): number {
    const mode = this.regs.num(i, 'powermode');
    if (mode === MODE_OFF) return STATE_OFF;
    if (mode === MODE_PSE) return this.detected(i) || this.enabled(i, 0) || this.enabled(i, 1) ? STATE_PSE : STATE_OFF;
    if (mode === MODE_PD) return STATE_PD;
    if (mode === MODE_AUTO) return this.detected(i) ? STATE_PSE : STATE_OFF;
    return STATE_OFF;
  }

  detection(i: number, p: number): number {
    if (this.powerState(i) !== STATE_PSE || !this.enabled(i, p)) return DETECT_UNKNOWN;
    return DEVICES[p] ? DETECT_VALID : DETECT_OPEN;
  }

  requested(i: number, p: number): number {
    return this.detection(i, p) === DETECT_VALID ? DEVICES[p]?.requestedClass ?? 0 : 0;
  }

  discovered(i: number, p: number): number {
    const d = DEVICES[p];
    if (!d || this.detection(i, p) !== DETECT_VALID) return 0;
    const sourcing = this.regs.num(i, 'pairsourcingclass', [p]);
    return sourcing === 0 ? d.requestedClass : Math.min(d.requestedClass, sourcing);
  }

  /** Power drawn on a pair, mW (before measurement). */
  private load(i: number, p: number): number {
    if (this.powerState(i) === STATE_PD) return p === 0 ? PD_OWN_LOAD_MW : 0;
    const d = DEVICES[p];
    const c = this.discovered(i, p);
    return d && c ? Math.min(d.loadMw, CLASS_BUDGET_MW[Math.min(c, 9)]) : 0;
  }

  voltage(i: number, p: number): number {
    const st = this.powerState(i);
    const n = 20_000 * noise(this.ctx.serial, 1100 + 2 * i + p, slot(this.ctx.wall()));
    if (st === STATE_PD) return p === 0 ? Math.round(PD_FEED_UV + n) : 0;
    if (st !== STATE_PSE || this.detection(i, p) !== DETECT_VALID) return 0;
    const amps = this.load(i, p) / 1000 / (PSE_UV / 1e6);
    return Math.round(PSE_UV - amps * PAIR_OHM * 1e6 + n);
  }

  current(i: number, p: number): number {
    const v = this.voltage(i, p);
    return v > 0 ? Math.round((this.load(i, p) * 1e9) / v) : 0; // uA = mW * 1e9 / uV
  }

  power(i: number, p: number): number {
    return Math.round((this.voltage(i, p) * this.current(i, p)) / 1e9);
  }

  total(i: number): number {
    let s = 0;
    for (let p = 0; p < PAIRS; p++) s += this.power(i, p);
    return s;
  }

  /** The detection signature: 25 kOhm of a valid PD, open circuit, or 0 when not detecting. */
  resistance(i: number, p: number): number {
    const d = this.detection(i, p);
    return d === DETECT_VALID ? SIGNATURE_MOHM : d === DETECT_OPEN ? OPEN_MOHM : 0;
  }

  capacitance(i: number, p: number): number {
    return this.detection(i, p) === DETECT_VALID ? SIGNATURE_NF : 0;
  }
}
Object.freeze(PoePairs.prototype);
