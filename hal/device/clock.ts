// clock: the module clock is the chip's real-time clock as Date reads it (set by SNTP on a network
// module), plus an offset a PUT moves. Setting one field keeps the others. The offset is RAM only: the
// ESP32 RTC does not survive power loss either, and SNTP sets the time again at boot.
// The route table bounds every field (year 0..4095, month 1..12, day 1..31...); only the day's upper
// bound depends on the module's state (the month and year set now): 409 aErrMode beyond it.

import { ApiError, aErrMode } from '../kit/errors';
import { deepFreeze } from '../../src/util/freeze';
import type { EntityOps, ValueOf, ValuesOf } from '../types';
import { DeviceEntity } from './entity';
import { READ, WRITE, type OpTable } from './op-table';
import type { Settings } from './settings';
import { asNumber } from '../kit/value-guards';

type Op = EntityOps['clock'];
/** The fields in Date order: index k of `fields()`. */
const FIELDS: readonly string[] = deepFreeze(['year', 'month', 'day', 'hour', 'minute', 'second']);

const FIELD = { code: READ | WRITE };
const OPS: OpTable<ValuesOf<'clock'>> = deepFreeze({ year: FIELD, month: FIELD, day: FIELD, hour: FIELD, minute: FIELD, second: FIELD });

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate(); // day 0 of the next month
}

function fields(ms: number): number[] {
  const d = new Date(ms);
  return [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()];
}

export class ClockEntity extends DeviceEntity<ValuesOf<'clock'>> {
  /** Milliseconds the module clock is ahead of Date.now(). */
  private offset = 0;

  constructor(s: Settings) {
    super('clock', OPS, 1, s, 'clk.');
  }

  /** The module clock, ms since the epoch (envelope timestamps). */
  now(): number {
    return Date.now() + this.offset;
  }

  protected override read(_i: number, op: Op): ValueOf<'clock'> {
    return fields(this.now())[FIELDS.indexOf(op)];
  }

  protected override write(_i: number, op: Op, _p: readonly number[], v: ValueOf<'clock'>): void {
    const value = asNumber(v, `clock/${op}`);
    const t = fields(this.now());
    t[FIELDS.indexOf(op)] = value;
    const last = daysInMonth(t[0], t[1]);
    if (op === 'day' && value > last) {
      throw new ApiError(aErrMode, `day ${value} does not exist in ${t[0]}-${t[1] < 10 ? '0' : ''}${t[1]} (1..${last}); set month (and year) first`);
    }
    if (t[2] > last) t[2] = last; // Jan 31 -> Feb keeps February and takes its last day
    const ms = this.now() % 1000;
    // Date.UTC maps years 0..99 to 1900..1999; setUTCFullYear puts them back.
    const d = new Date(Date.UTC(t[0], t[1] - 1, t[2], t[3], t[4], t[5], ms));
    d.setUTCFullYear(t[0]);
    this.offset = d.getTime() - Date.now();
  }
}
Object.freeze(ClockEntity.prototype);
