// rail: a programmable supply driving a simulated resistive load. The operating mode picks what is
// regulated (CC, CV, CP, CR); the limits clamp the output and latch fault bits in operationalstate until
// clearfaults. Measurements are derived from one solved operating point, so P = V·I and R = V/I hold.

import { ApiError, aErrMode, aErrUnimplemented } from '../kit/errors';
import type { HalOf } from '../types';
import { ERR_RAIL_FAULT } from '../kit/error-word';
import type { SimContext } from './context';
import { makeEntity } from './entity';
import type { RailSpec } from './profile';
import { oneOf, range } from './limits';
import { asBool, asNumber } from '../kit/value-guards';
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
const MODE_CV = 1;
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

function solve(r: {
  enable: boolean; mode: number; vset: number; iset: number; pset: number; rset: number;
  ilimit: number; vmin: number; vmax: number; plimit: number; load: number;
}): Point {
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

export interface RailModel {
  entity: HalOf<'rail'>;
  setLoad(rail: number, milliohm: number): void;
  /** Power delivered by all rails, mW (the system's input current follows it). */
  totalPower(): number;
}

export function createRails(ctx: SimContext): RailModel {
  const specs = ctx.profile.rails;
  const spec = (i: number): RailSpec => specs[i] ?? specs[specs.length - 1];
  const regs = ctx.registers('rail', {
    enable: false,
    voltagesetpoint: 5_000_000,
    currentsetpoint: 1_000_000,
    powersetpoint: 5_000,
    resistancesetpoint: 10_000,
    currentlimit: (i) => spec(i).maxCurrent,
    voltageminlimit: 0,
    voltagemaxlimit: (i) => spec(i).maxVoltage,
    powerlimit: (i) => spec(i).maxPower,
    kelvinsensingenable: false,
    operationalmode: MODE_CV << 4, // auto hardware, constant voltage
  });
  const loads: number[] = [];
  const latched: number[] = [];
  const powerUp = () => {
    for (let i = 0; i < regs.count; i++) {
      loads[i] = loads[i] ?? spec(i).loadMilliohm;
      latched[i] = 0;
    }
  };
  powerUp();
  ctx.onReboot(powerUp);

  const point = (i: number): Point => solve({
    enable: regs.bool(i, 'enable'), mode: regs.num(i, 'operationalmode'),
    vset: regs.num(i, 'voltagesetpoint'), iset: regs.num(i, 'currentsetpoint'),
    pset: regs.num(i, 'powersetpoint'), rset: regs.num(i, 'resistancesetpoint'),
    ilimit: regs.num(i, 'currentlimit'), vmin: regs.num(i, 'voltageminlimit'),
    vmax: regs.num(i, 'voltagemaxlimit'), plimit: regs.num(i, 'powerlimit'), load: loads[i],
  });
  // What the meters read: the operating point with a little measurement noise, in integer units.
  const measured = (i: number) => {
    const p = point(i);
    const s = slot(ctx.wall());
    const v = p.v === 0 ? 0 : Math.max(0, Math.round(p.v * (1 + 2e-5 * noise(ctx.serial, 100 + i, s))));
    const c = p.i === 0 ? 0 : Math.max(0, Math.round(p.i * (1 + 5e-5 * noise(ctx.serial, 200 + i, s))));
    return { v, i: c, p };
  };
  const powerMw = (i: number) => {
    const m = measured(i);
    return Math.round((m.v * m.i) / 1e9);
  };
  const temperature = (i: number) =>
    Math.round(AMBIENT_UC + KELVIN_PER_WATT_UC * (powerMw(i) / 1000) + 50_000 * noise(ctx.serial, 300 + i, slot(ctx.wall())));
  const faultsNow = (i: number) => point(i).faults | (temperature(i) > OVERTEMPERATURE_UC ? FAULT_OVERTEMPERATURE : 0);

  ctx.onAdvance(() => {
    for (let i = 0; i < regs.count; i++) {
      const f = faultsNow(i);
      if (f & ~latched[i]) ctx.flagError(ERR_RAIL_FAULT, `rail ${i} fault 0x${f.toString(16)}`);
      latched[i] |= f;
    }
  });

  const hardware = (i: number, v: number): number => {
    const hw = regs.num(i, 'operationalmode') & 0x0f;
    // auto picks the linear stage at low voltage (low noise) and the switcher above 3.3 V (efficiency)
    return hw !== 0 ? hw : v <= 3_300_000 ? 1 : 2;
  };

  // Published per entity (DECISIONS.md §Self-description): a profile's rails share one rating
  // (profiles/check.ts), so rail 0's is every rail's.
  const rating: RailSpec = specs[0] ?? { maxVoltage: 0, maxCurrent: 0, maxPower: 0, switchable: false, loadMilliohm: 1 };
  const modes: number[] = [];
  for (let mode = 0; mode <= 3; mode++) for (let hw = 0; hw <= 3; hw++) modes.push((mode << 4) | hw);
  const limits = {
    voltagesetpoint: range(0, rating.maxVoltage),
    currentsetpoint: range(0, rating.maxCurrent),
    powersetpoint: range(0, rating.maxPower),
    resistancesetpoint: range(1, 2147483647),
    currentlimit: range(0, rating.maxCurrent),
    powerlimit: range(0, rating.maxPower),
    voltagemaxlimit: range(0, rating.maxVoltage),
    voltageminlimit: range(0, rating.maxVoltage),
    // operationalmode: hardware nibble 0..3 (auto, linear, switcher, ...), mode nibble 0..3 (CC, CV, CP, CR)
    operationalmode: oneOf(modes),
  };
  const plain = (op: string) => (i: number, _p: readonly number[], v: number) => regs.write(i, op, [], asNumber(v, op));

  const entity = makeEntity(ctx, 'rail', {
    registers: regs,
    limits,
    get: {
      voltage: (i) => measured(i).v,
      current: (i) => measured(i).i,
      power: (i) => powerMw(i),
      resistance: (i) => {
        const m = measured(i);
        return m.i > 0 ? Math.min(OPEN_CIRCUIT_MOHM, Math.round((m.v * 1000) / m.i)) : OPEN_CIRCUIT_MOHM;
      },
      temperature: (i) => temperature(i),
      kelvinsensingstate: (i) => regs.bool(i, 'kelvinsensingenable') && regs.bool(i, 'enable'),
      operationalstate: (i) => {
        const p = point(i);
        const en = regs.bool(i, 'enable');
        let st = latched[i];
        if (st) st |= ST_FAULT;
        if (en) st |= ST_ENABLED;
        st |= hardware(i, p.v) << 8;
        st |= p.mode << 24;
        return st >>> 0;
      },
    },
    set: {
      enable: (i, _p, v) => {
        if (!spec(i).switchable) throw new ApiError(aErrUnimplemented, `rail ${i} cannot be switched`);
        regs.write(i, 'enable', [], asBool(v, 'enable'));
      },
      voltagesetpoint: plain('voltagesetpoint'),
      currentsetpoint: plain('currentsetpoint'),
      powersetpoint: plain('powersetpoint'),
      resistancesetpoint: plain('resistancesetpoint'),
      currentlimit: plain('currentlimit'),
      powerlimit: plain('powerlimit'),
      // The window min <= max is module state: a value the other limit forbids is 409, saying which to move.
      voltagemaxlimit: (i, _p, v) => {
        const n = asNumber(v, 'voltagemaxlimit');
        const min = regs.num(i, 'voltageminlimit');
        if (n < min) throw new ApiError(aErrMode, `rail ${i} voltagemaxlimit ${n} is below voltageminlimit ${min}; lower voltageminlimit first`);
        regs.write(i, 'voltagemaxlimit', [], n);
      },
      voltageminlimit: (i, _p, v) => {
        const n = asNumber(v, 'voltageminlimit');
        const max = regs.num(i, 'voltagemaxlimit');
        if (n > max) throw new ApiError(aErrMode, `rail ${i} voltageminlimit ${n} is above voltagemaxlimit ${max}; raise voltagemaxlimit first`);
        regs.write(i, 'voltageminlimit', [], n);
      },
      operationalmode: plain('operationalmode'),
    },
    run: {
      clearfaults: (i) => { latched[i] = 0; },
    },
  });

  return {
    entity,
    setLoad: (rail, milliohm) => { loads[rail] = Math.max(1, milliohm); },
    totalPower: () => {
      let sum = 0;
      for (let i = 0; i < regs.count; i++) sum += powerMw(i);
      return sum;
    },
  };
}
