// clock: the module clock is the chip's real-time clock as Date reads it (set by SNTP on a network
// module), plus an offset a PUT moves. Setting one field keeps the others. The offset is RAM only: the
// ESP32 RTC does not survive power loss either, and SNTP sets the time again at boot. A clock set by
// hand is the operator's: a network answer that arrives later leaves it alone (src/device/clock-sync.ts).
// The calendar and the rule for setting a field are the simulator's too (hal/kit/calendar.ts).

import { deepFreeze } from '../../util/freeze';
import type { EntityOps, ValueOf, ValuesOf } from '../types';
import { civilFromMs, msFromCivil, setField, type ClockField } from '../kit/calendar';
import { DeviceEntity } from './entity';
import { READ, WRITE, type OpTable } from './op-table';
import type { Settings } from './settings';
import { asNumber } from '../kit/value-guards';

type Op = EntityOps['clock'];

const FIELD = { code: READ | WRITE };
const OPS: OpTable<ValuesOf<'clock'>> = deepFreeze({ year: FIELD, month: FIELD, day: FIELD, hour: FIELD, minute: FIELD, second: FIELD });

export class ClockEntity extends DeviceEntity<ValuesOf<'clock'>> {
  /** Milliseconds the module clock is ahead of Date.now(). */
  private offset = 0;
  /** Set by a PUT since the boot. */
  setByHand = false;

  constructor(s: Settings) {
    super('clock', OPS, 1, s, 'clk.');
  }

  /** The module clock, ms since the epoch (envelope timestamps). */
  now(): number {
    return Date.now() + this.offset;
  }

  protected override read(_i: number, op: Op): ValueOf<'clock'> {
    return civilFromMs(this.now())[op as ClockField];
  }

  protected override write(_i: number, op: Op, _p: readonly number[], v: ValueOf<'clock'>): void {
    const t = civilFromMs(this.now());
    setField(t, op as ClockField, asNumber(v, `clock/${op}`));
    this.offset = msFromCivil(t) - Date.now();
    this.setByHand = true;
  }
}
Object.freeze(ClockEntity.prototype);
