// poe: power over ethernet on pairs 1/2 (0) and 3/4 (1), as PSE or PD; the pair physics (detection,
// classification, measurements, energy) is poe-pairs.ts, wired here into the poe entity.

import type { HalOf } from '../types';
import type { SimContext } from './context';
import { makeEntity } from './entity';
import { asNumber } from '../kit/value-guards';
import { MODE_PSE, PoePairs } from './poe-pairs';

export function createPoe(ctx: SimContext): HalOf<'poe'> {
  const regs = ctx.registers('poe', { pairenabled: true, powermode: MODE_PSE, pairsourcingclass: 5 });
  const pairs = new PoePairs(ctx, regs);
  return makeEntity(ctx, 'poe', {
    registers: regs,
    get: {
      powerstate: (i) => pairs.powerState(i),
      pairrequestedclass: (i, p) => pairs.requested(i, p[0]),
      pairdiscoveredclass: (i, p) => pairs.discovered(i, p[0]),
      pairdetectionstatus: (i, p) => pairs.detection(i, p[0]),
      pairvoltage: (i, p) => pairs.voltage(i, p[0]),
      paircurrent: (i, p) => pairs.current(i, p[0]),
      pairpower: (i, p) => pairs.power(i, p[0]),
      totalpower: (i) => pairs.total(i),
      pairresistance: (i, p) => pairs.resistance(i, p[0]),
      paircapacitance: (i, p) => pairs.capacitance(i, p[0]),
      pairaccumulatedpower: (i, p) => Math.floor(pairs.pairEnergy[i][p[0]]),
      totalaccumulatedpower: (i) => Math.floor(pairs.totalEnergy[i]),
    },
    set: {
      pairaccumulatedpower: (i, p, v) => { pairs.pairEnergy[i][p[0]] = asNumber(v, 'pairaccumulatedpower'); },
      totalaccumulatedpower: (i, _p, v) => { pairs.totalEnergy[i] = asNumber(v, 'totalaccumulatedpower'); },
    },
  });
}
