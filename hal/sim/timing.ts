// timer and signal: plain settings, with the one coupling the contract names: a signal's active time
// t2 never exceeds its period t3 (hal/kit/signal-rules.ts: 409 aErrMode saying which to change first);
// the period is at least 1 ns (a published limit).

import { checkSignalTimes } from '../kit/signal-rules';
import type { HalOf } from '../types';
import type { SimContext } from './context';
import { makeEntity } from './entity';
import { range } from './profile-limits';
import { asNumber } from '../kit/value-guards';

export function createTimer(ctx: SimContext): HalOf<'timer'> {
  // expiration shows the value last set and does not count down (operations.tsv).
  return makeEntity(ctx, 'timer', { registers: ctx.registers('timer', { expiration: 0, mode: 0 }) });
}

export function createSignal(ctx: SimContext): HalOf<'signal'> {
  const regs = ctx.registers('signal', { enable: false, invert: false, t3time: 1_000_000, t2time: 500_000 }); // 1 kHz, 50 %
  return makeEntity(ctx, 'signal', {
    registers: regs,
    limits: { t3time: range(1, 4294967295) },
    set: {
      t3time: (i, _p, v) => {
        const t3 = asNumber(v, 't3time');
        checkSignalTimes(i, 't3time', t3, regs.num(i, 't2time'), t3);
        regs.write(i, 't3time', [], t3);
      },
      t2time: (i, _p, v) => {
        const t2 = asNumber(v, 't2time');
        checkSignalTimes(i, 't2time', t2, t2, regs.num(i, 't3time'));
        regs.write(i, 't2time', [], t2);
      },
    },
  });
}
