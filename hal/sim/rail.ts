// rail: a programmable supply driving a simulated resistive load. The operating mode picks what is
// regulated (CC, CV, CP, CR); the limits clamp the output and latch fault bits in operationalstate until
// clearfaults. Measurements are derived from one solved operating point (rail-model.ts), so P = V·I and
// R = V/I hold; this file wires them and the settings into the rail entity.

import { ApiError, aErrMode, aErrUnimplemented } from '../kit/errors';
import type { EntityOps, HalOf, OpLimits } from '../types';
import type { SimContext } from './context';
import { makeEntity } from './entity';
import type { RailSpec } from './profile';
import { oneOf, range } from './profile-limits';
import { asBool, asNumber } from '../kit/value-guards';
import { MODE_CV, RailPhysics } from './rail-model';
import type { RegisterFile } from './registers';

export interface RailModel {
  entity: HalOf<'rail'>;
  setLoad(rail: number, milliohm: number): void;
  /** Power delivered by all rails, mW (the system's input current follows it). */
  totalPower(): number;
}

/**
 * Published per entity (docs/api.md §What a module has and accepts): a profile's rails share one rating
 * (profiles/check.ts), so rail 0's is every rail's.
 */
function railLimits(specs: readonly RailSpec[]): { [K in EntityOps['rail']]?: OpLimits } {
  const rating: RailSpec = specs[0] ?? { maxVoltage: 0, maxCurrent: 0, maxPower: 0, switchable: false, loadMilliohm: 1 };
  const modes: number[] = [];
  for (let mode = 0; mode <= 3; mode++) for (let hw = 0; hw <= 3; hw++) modes.push((mode << 4) | hw);
  return {
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
}

/** The window min <= max is module state: a value the other limit forbids is 409, saying which to move. */
function setVoltageWindow(regs: RegisterFile, i: number, op: 'voltagemaxlimit' | 'voltageminlimit', n: number): void {
  if (op === 'voltagemaxlimit') {
    const min = regs.num(i, 'voltageminlimit');
    if (n < min) throw new ApiError(aErrMode, `rail ${i} voltagemaxlimit ${n} is below voltageminlimit ${min}; lower voltageminlimit first`);
  } else {
    const max = regs.num(i, 'voltagemaxlimit');
    if (n > max) throw new ApiError(aErrMode, `rail ${i} voltageminlimit ${n} is above voltagemaxlimit ${max}; raise voltagemaxlimit first`);
  }
  regs.write(i, op, [], n);
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
  const rails = new RailPhysics(ctx, regs, spec);
  const plain = (op: string) => (i: number, _p: readonly number[], v: number) => regs.write(i, op, [], asNumber(v, op));

  const entity = makeEntity(ctx, 'rail', {
    registers: regs,
    limits: railLimits(specs),
    get: {
      voltage: (i) => rails.measured(i).v,
      current: (i) => rails.measured(i).i,
      power: (i) => rails.powerMw(i),
      resistance: (i) => rails.resistance(i),
      temperature: (i) => rails.temperature(i),
      kelvinsensingstate: (i) => regs.bool(i, 'kelvinsensingenable') && regs.bool(i, 'enable'),
      operationalstate: (i) => rails.operationalState(i),
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
      voltagemaxlimit: (i, _p, v) => setVoltageWindow(regs, i, 'voltagemaxlimit', asNumber(v, 'voltagemaxlimit')),
      voltageminlimit: (i, _p, v) => setVoltageWindow(regs, i, 'voltageminlimit', asNumber(v, 'voltageminlimit')),
      operationalmode: plain('operationalmode'),
    },
    run: {
      clearfaults: (i) => rails.clearFaults(i),
    },
  });

  return {
    entity,
    setLoad: (rail, milliohm) => rails.setLoad(rail, milliohm),
    totalPower: () => rails.totalPower(),
  };
}
