// clock: a real-time clock that ticks with the time source. Setting a field keeps the others and moves
// the clock's offset from wall time; the clock keeps running through reset (battery-backed RTC).

import { ApiError, aErrMode } from '../kit/errors';
import type { EntityOps, HalOf } from '../types';
import { civilFromMs, daysInMonth, msFromCivil, type CivilTime } from './calendar';
import type { SimContext } from './context';
import { makeEntity } from './entity';
import { asNumber } from '../kit/value-guards';

type ClockOp = EntityOps['clock'];
type Field = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second';

const FIELDS: readonly Field[] = ['year', 'month', 'day', 'hour', 'minute', 'second'];

export function createClock(ctx: SimContext): HalOf<'clock'> {
  const read = (f: Field) => () => civilFromMs(ctx.moduleNow())[f];
  const write = (f: Field) => (_i: number, _p: readonly number[], v: number) => {
    const value = asNumber(v, `clock/${f}`);
    const t: CivilTime = civilFromMs(ctx.moduleNow());
    t[f] = value;
    const last = daysInMonth(t.year, t.month);
    if (f === 'day' && value > last) {
      throw new ApiError(aErrMode, `day ${value}: ${t.year}-${String(t.month).padStart(2, '0')} has ${last} days; set month first`);
    }
    // Moving month or year under a day the new month lacks (Jan 31 -> Feb) keeps the month asked for and
    // takes its last day, as an RTC that validates its date registers does.
    if (t.day > last) t.day = last;
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
