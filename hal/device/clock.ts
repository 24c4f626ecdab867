// clock: the module clock is the chip's real-time clock as Date reads it (set by SNTP on a network
// module), plus an offset a PUT moves. Setting one field keeps the others. The offset is RAM only: the
// ESP32 RTC does not survive power loss either, and SNTP sets the time again at boot.

import { ApiError, aErrRange } from '../../src/api/errors';
import type { EntityHal, EntityOps, HalValue } from '../types';
import { makeEntity, type Getter, type Setter } from './entity';
import { asNumber } from './values';

type Op = EntityOps['clock'];
type Field = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second';
const FIELDS: readonly Field[] = Object.freeze(['year', 'month', 'day', 'hour', 'minute', 'second'] as const);

export interface ModuleClock {
  now(): number;
  readonly entity: EntityHal<Op>;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate(); // day 0 of the next month
}

export function createClock(): ModuleClock {
  let offset = 0;
  const now = (): number => Date.now() + offset;
  const fields = (ms: number): number[] => {
    const d = new Date(ms);
    return [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()];
  };
  const get: { [K in Op]?: Getter } = {};
  const set: { [K in Op]?: Setter } = {};
  FIELDS.forEach((f, k) => {
    get[f] = () => fields(now())[k];
    set[f] = (_i: number, _p: readonly number[], v: HalValue) => {
      const value = asNumber(v, `clock/${f}`);
      const t = fields(now());
      t[k] = value;
      const last = daysInMonth(t[0], t[1]);
      if (f === 'day' && value > last) {
        throw new ApiError(aErrRange, `day ${value} out of range 1..${last} for ${t[0]}-${t[1] < 10 ? '0' : ''}${t[1]}`);
      }
      if (t[2] > last) t[2] = last; // Jan 31 -> Feb keeps February and takes its last day
      const ms = now() % 1000;
      const target = Date.UTC(t[0], t[1] - 1, t[2], t[3], t[4], t[5], ms);
      // Date.UTC maps years 0..99 to 1900..1999; setUTCFullYear puts them back.
      const d = new Date(target);
      d.setUTCFullYear(t[0]);
      offset = d.getTime() - Date.now();
    };
  });
  return { now, entity: makeEntity('clock', { count: 1, get, set }) };
}
