// clock: a real-time clock that ticks with the time source. Setting a field keeps the others and moves
// the clock's offset from wall time; the clock keeps running through reset (battery-backed RTC).

import type { EntityOps, HalOf } from '../types';
import { civilFromMs, msFromCivil, setField, type ClockField } from '../kit/calendar';
import type { SimContext } from './context';
import { makeEntity } from './entity';
import { asNumber } from '../kit/value-guards';

type ClockOp = EntityOps['clock'];
const FIELDS: readonly ClockField[] = ['year', 'month', 'day', 'hour', 'minute', 'second'];

export function createClock(ctx: SimContext): HalOf<'clock'> {
  const read = (f: ClockField) => () => civilFromMs(ctx.moduleNow())[f];
  const write = (f: ClockField) => (_i: number, _p: readonly number[], v: number) => {
    const t = civilFromMs(ctx.moduleNow());
    setField(t, f, asNumber(v, `clock/${f}`));
    ctx.clockOffset = msFromCivil(t) - ctx.wall();
  };
  const get: { [K in ClockOp]?: () => number } = {};
  const set: { [K in ClockOp]?: ReturnType<typeof write> } = {};
  for (const f of FIELDS) {
    get[f] = read(f);
    set[f] = write(f);
  }
  return makeEntity(ctx, 'clock', { get, set });
}
