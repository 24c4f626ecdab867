// clock: the module clock is the chip's real-time clock as Date reads it (set by SNTP on a network
// module), made whole across the Pico's 32-bit millisecond wrap (./wall-clock.ts), plus the part of a
// second the network's answer had beyond what Time.set keeps (whole seconds), plus an offset a PUT moves. Setting one field keeps the others. The offset is RAM only: the
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
import { WallClock } from './wall-clock';

type Op = EntityOps['clock'];

const FIELD = { code: READ | WRITE };
const OPS: OpTable<ValuesOf<'clock'>> = deepFreeze({ year: FIELD, month: FIELD, day: FIELD, hour: FIELD, minute: FIELD, second: FIELD });

export class ClockEntity extends DeviceEntity<ValuesOf<'clock'>> {
  /** Milliseconds the module clock is ahead of the chip's. */
  private offset = 0;
  /** Milliseconds the network's time is ahead of the chip's whole-second clock (|x| < 1 s once set). */
  private fine = 0;
  /** Set by a PUT since the boot. */
  setByHand = false;
  /** The chip's clock (Date), or null where Date is read as it is (no monotonic clock given). */
  private readonly wall: WallClock | null;

  /** @param ticks monotonic milliseconds (src/device/ticks.ts), to see Date's wrap by */
  constructor(s: Settings, ticks?: () => number) {
    super('clock', OPS, 1, s, 'clk.');
    this.wall = ticks ? new WallClock(ticks) : null;
  }

  /** The module clock, ms since the epoch (envelope timestamps, Date:). */
  now(): number {
    return this.chip() + this.offset;
  }

  /**
   * The chip's clock has just been set (Time.set) to the whole second of `ms`, the network's time: the
   * rest is kept here, so that the module clock is right to the millisecond, not just to the second.
   */
  trim(ms: number): void {
    this.fine = 0;
    this.fine = ms - this.chip();
  }

  private chip(): number {
    const wall = this.wall;
    return (wall ? wall.now() : Date.now()) + this.fine;
  }

  protected override read(_i: number, op: Op): ValueOf<'clock'> {
    return civilFromMs(this.now())[op as ClockField];
  }

  protected override write(_i: number, op: Op, _p: readonly number[], v: ValueOf<'clock'>): void {
    const chip = this.chip();
    const t = civilFromMs(chip + this.offset);
    setField(t, op as ClockField, asNumber(v, `clock/${op}`));
    this.offset = msFromCivil(t) - chip;
    this.setByHand = true;
  }
}
Object.freeze(ClockEntity.prototype);
