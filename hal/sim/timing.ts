// timer and signal: plain settings, with the one coupling the contract names: a signal's active time
// t2 never exceeds its period t3 (violations answer aErrRange, whichever of the two is written).

import { ApiError, aErrRange } from '../../src/api/errors';
import type { EntityHal, EntityOps } from '../types';
import type { SimContext } from './context';
import { makeEntity } from './entity';
import { asNumber } from './values';

export function createTimer(ctx: SimContext): EntityHal<EntityOps['timer']> {
  // expiration shows the value last set and does not count down (operations.tsv).
  return makeEntity(ctx, 'timer', { registers: ctx.registers('timer', { expiration: 0, mode: 0 }) });
}

export function createSignal(ctx: SimContext): EntityHal<EntityOps['signal']> {
  const regs = ctx.registers('signal', { enable: false, invert: false, t3time: 1_000_000, t2time: 500_000 }); // 1 kHz, 50 %
  return makeEntity(ctx, 'signal', {
    registers: regs,
    set: {
      t3time: (i, _p, v) => {
        const t3 = asNumber(v, 't3time');
        const t2 = regs.num(i, 't2time');
        if (t3 === 0) throw new ApiError(aErrRange, `signal ${i} t3time 0: the period must be at least 1 ns`);
        if (t3 < t2) throw new ApiError(aErrRange, `signal ${i} t3time ${t3} below t2time ${t2}; lower t2time first`);
        regs.write(i, 't3time', [], t3);
      },
      t2time: (i, _p, v) => {
        const t2 = asNumber(v, 't2time');
        const t3 = regs.num(i, 't3time');
        if (t2 > t3) throw new ApiError(aErrRange, `signal ${i} t2time ${t2} out of range 0..${t3} (t3time)`);
        regs.write(i, 't2time', [], t2);
      },
    },
  });
}
