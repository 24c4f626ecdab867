// signal: a PWM output described by its period (t3time) and active time (t2time) in ns; invert swaps the
// active level. The period is rounded to what the PWM frequency (whole Hz) can make.
// Limits: the period 3,200 ns (312.5 kHz) .. 500,000,000 ns (2 Hz), what the ESP32 LEDC makes at the
// resolution the output is opened with (hal/device/ledc.ts), or up to the period of the board's lowest
// PWM frequency where that is higher (125,000,000 ns, 8 Hz, on RP2040); the active time never exceeds the period,
// a rule that depends on the other value set now (409 aErrMode, hal/kit/signal-rules.ts). An enabled signal holds a PWM channel.

import { checkSignalTimes } from '../kit/signal-rules';
import { deepFreeze } from '../../util/freeze';
import type { EntityOps, ValueOf, ValuesOf } from '../types';
import { DeviceEntity } from './entity';
import { WRITE, type OpTable } from './op-table';
import { MAX_PERIOD_NS, MIN_PERIOD_NS } from './ledc';
import { PwmPin, type PwmChannels } from './pwm-pin';
import type { Settings } from './settings';
import { asNumber } from '../kit/value-guards';

type Op = EntityOps['signal'];
export { MAX_PERIOD_NS, MIN_PERIOD_NS };

/** The op table for periods of MIN_PERIOD_NS up to `maxPeriodNs` (the board's lowest PWM frequency). */
function signalOps(maxPeriodNs: number): OpTable<ValuesOf<'signal'>> {
  return deepFreeze({
    enable: { setting: 'en', factory: false },
    invert: { setting: 'inv', factory: false },
    t3time: { setting: 't3', factory: 1000000, code: WRITE, limits: { min: MIN_PERIOD_NS, max: maxPeriodNs } }, // 1 kHz
    t2time: { setting: 't2', factory: 500000, code: WRITE, limits: { min: 0, max: maxPeriodNs } },
  });
}

/** The ESP32's table, made once and preloaded (flash); another board's is made at boot. */
const LEDC_OPS = signalOps(MAX_PERIOD_NS);

export class SignalEntity extends DeviceEntity<ValuesOf<'signal'>> {
  private readonly out: PwmPin[];

  /** `minHz`: the board's lowest PWM frequency (BoardProfile.pwmMinHz). */
  constructor(s: Settings, pins: readonly number[], channels: PwmChannels, minHz: number) {
    const longest = Math.floor(1e9 / minHz);
    super('signal', longest === MAX_PERIOD_NS ? LEDC_OPS : signalOps(longest), pins.length, s, 'sig');
    this.out = [];
    for (let i = 0; i < pins.length; i++) this.out.push(new PwmPin(pins[i], 'signal/' + i, channels));
  }

  override boot(): void {
    for (let i = 0; i < this.out.length; i++) this.changed(i);
  }

  protected override write(i: number, op: Op, _p: readonly number[], v: ValueOf<'signal'>): void {
    const s = this.settings;
    const t3 = s.num(this.key(i, 't3'));
    const t2 = s.num(this.key(i, 't2'));
    const n = asNumber(v, op);
    checkSignalTimes(i, op, n, t2, t3);
    this.apply(i, op, this.key(i, op === 't3time' ? 't3' : 't2'), n);
  }

  protected override changed(i: number): void {
    const s = this.settings;
    if (!s.bool(this.key(i, 'en'))) return this.out[i].stop();
    const t3 = s.num(this.key(i, 't3'));
    const duty = s.num(this.key(i, 't2')) / t3;
    this.out[i].drive(Math.round(1e9 / t3), s.bool(this.key(i, 'inv')) ? 1 - duty : duty);
  }
}
Object.freeze(SignalEntity.prototype);
