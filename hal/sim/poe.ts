// poe: power over ethernet on pairs 1/2 (0) and 3/4 (1). As a PSE the module detects a powered device
// per pair, classifies it and powers it within the class budget; as a PD it is fed on pair 0.
// Power is voltage x current per pair, totals are sums, energy accumulates with simulated time.

import type { HalOf } from '../types';
import type { SimContext } from './context';
import { makeEntity } from './entity';
import { asNumber } from '../kit/value-guards';
import { noise, slot } from './values';

const MODE_OFF = 0;
const MODE_PSE = 1;
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

export function createPoe(ctx: SimContext): HalOf<'poe'> {
  const regs = ctx.registers('poe', { pairenabled: true, powermode: MODE_PSE, pairsourcingclass: 5 });
  const enabled = (i: number, p: number) => regs.bool(i, 'pairenabled', [p]);
  const detected = (i: number) => {
    for (let p = 0; p < PAIRS; p++) if (enabled(i, p) && DEVICES[p]) return true;
    return false;
  };
  const powerState = (i: number) => {
    const mode = regs.num(i, 'powermode');
    if (mode === MODE_OFF) return STATE_OFF;
    if (mode === MODE_PSE) return detected(i) || enabled(i, 0) || enabled(i, 1) ? STATE_PSE : STATE_OFF;
    if (mode === MODE_PD) return STATE_PD;
    if (mode === MODE_AUTO) return detected(i) ? STATE_PSE : STATE_OFF;
    return STATE_OFF;
  };
  const detection = (i: number, p: number) => {
    if (powerState(i) !== STATE_PSE || !enabled(i, p)) return DETECT_UNKNOWN;
    return DEVICES[p] ? DETECT_VALID : DETECT_OPEN;
  };
  const discovered = (i: number, p: number) => {
    const d = DEVICES[p];
    if (!d || detection(i, p) !== DETECT_VALID) return 0;
    const sourcing = regs.num(i, 'pairsourcingclass', [p]);
    return sourcing === 0 ? d.requestedClass : Math.min(d.requestedClass, sourcing);
  };
  /** Power drawn on a pair, mW (before measurement). */
  const load = (i: number, p: number) => {
    if (powerState(i) === STATE_PD) return p === 0 ? PD_OWN_LOAD_MW : 0;
    const d = DEVICES[p];
    const c = discovered(i, p);
    return d && c ? Math.min(d.loadMw, CLASS_BUDGET_MW[Math.min(c, 9)]) : 0;
  };
  const voltage = (i: number, p: number) => {
    const st = powerState(i);
    const n = 20_000 * noise(ctx.serial, 1100 + 2 * i + p, slot(ctx.wall()));
    if (st === STATE_PD) return p === 0 ? Math.round(PD_FEED_UV + n) : 0;
    if (st !== STATE_PSE || detection(i, p) !== DETECT_VALID) return 0;
    const amps = load(i, p) / 1000 / (PSE_UV / 1e6);
    return Math.round(PSE_UV - amps * PAIR_OHM * 1e6 + n);
  };
  const current = (i: number, p: number) => {
    const v = voltage(i, p);
    return v > 0 ? Math.round((load(i, p) * 1e9) / v) : 0; // uA = mW * 1e9 / uV
  };
  const power = (i: number, p: number) => Math.round((voltage(i, p) * current(i, p)) / 1e9);
  const total = (i: number) => {
    let s = 0;
    for (let p = 0; p < PAIRS; p++) s += power(i, p);
    return s;
  };

  // Energy, mWh: per pair and a total of its own (setting one does not move the others).
  const count = ctx.count('poe');
  let pairEnergy: number[][] = [];
  let totalEnergy: number[] = [];
  let last = ctx.wall();
  const powerUp = () => {
    pairEnergy = [];
    totalEnergy = [];
    for (let i = 0; i < count; i++) {
      pairEnergy.push([0, 0]);
      totalEnergy.push(0);
    }
    last = ctx.wall();
  };
  powerUp();
  ctx.onReboot(powerUp);
  ctx.onAdvance((t) => {
    const h = (t - last) / 3_600_000;
    last = t;
    if (h <= 0) return;
    for (let i = 0; i < count; i++) {
      for (let p = 0; p < PAIRS; p++) pairEnergy[i][p] += power(i, p) * h;
      totalEnergy[i] += total(i) * h;
    }
  });

  return makeEntity(ctx, 'poe', {
    registers: regs,
    get: {
      powerstate: (i) => powerState(i),
      pairrequestedclass: (i, p) => (detection(i, p[0]) === DETECT_VALID ? DEVICES[p[0]]?.requestedClass ?? 0 : 0),
      pairdiscoveredclass: (i, p) => discovered(i, p[0]),
      pairdetectionstatus: (i, p) => detection(i, p[0]),
      pairvoltage: (i, p) => voltage(i, p[0]),
      paircurrent: (i, p) => current(i, p[0]),
      pairpower: (i, p) => power(i, p[0]),
      totalpower: (i) => total(i),
      pairresistance: (i, p) => {
        const d = detection(i, p[0]);
        return d === DETECT_VALID ? SIGNATURE_MOHM : d === DETECT_OPEN ? OPEN_MOHM : 0;
      },
      paircapacitance: (i, p) => (detection(i, p[0]) === DETECT_VALID ? SIGNATURE_NF : 0),
      pairaccumulatedpower: (i, p) => Math.floor(pairEnergy[i][p[0]]),
      totalaccumulatedpower: (i) => Math.floor(totalEnergy[i]),
    },
    set: {
      pairaccumulatedpower: (i, p, v) => { pairEnergy[i][p[0]] = asNumber(v, 'pairaccumulatedpower'); },
      totalaccumulatedpower: (i, _p, v) => { totalEnergy[i] = asNumber(v, 'totalaccumulatedpower'); },
    },
  });
}

