// signal: a PWM output described by its period (t3time) and active time (t2time) in ns; invert swaps the
// active level. The period is rounded to what the PWM frequency (whole Hz) can make.

import { ApiError, aErrRange } from '../../src/api/errors';
import type { EntityOps } from '../types';
import { makeEntity } from './entity';
import { PwmPin } from './pwm-pin';
import type { OutputModel } from './servo';
import type { Settings } from './settings';
import { asBool, asNumber } from './values';

type Op = EntityOps['signal'];
/** The slowest the ESP32 LEDC makes at its usual resolution is about 1 Hz; the fastest usable ~40 MHz. */
const MIN_PERIOD_NS = 25;
const MAX_PERIOD_NS = 1000000000;

export function createSignal(s: Settings, pins: readonly number[]): OutputModel<Op> {
  const out = pins.map((p) => new PwmPin(p));
  const k = (i: number, what: string) => 'sig' + i + '.' + what;
  pins.forEach((_p, i) => {
    s.define(k(i, 'en'), false);
    s.define(k(i, 'inv'), false);
    s.define(k(i, 't3'), 1000000); // 1 kHz
    s.define(k(i, 't2'), 500000);
  });
  const apply = (i: number): void => {
    if (!s.bool(k(i, 'en'))) return out[i].stop();
    const t3 = s.num(k(i, 't3'));
    const duty = s.num(k(i, 't2')) / t3;
    out[i].drive(Math.round(1e9 / t3), s.bool(k(i, 'inv')) ? 1 - duty : duty);
  };
  const entity = makeEntity('signal', {
    count: pins.length,
    get: {
      enable: (i) => s.bool(k(i, 'en')),
      invert: (i) => s.bool(k(i, 'inv')),
      t3time: (i) => s.num(k(i, 't3')),
      t2time: (i) => s.num(k(i, 't2')),
    },
    set: {
      enable: (i, _p, v) => { s.set(k(i, 'en'), asBool(v, 'enable')); apply(i); },
      invert: (i, _p, v) => { s.set(k(i, 'inv'), asBool(v, 'invert')); apply(i); },
      t3time: (i, _p, v) => {
        const t3 = asNumber(v, 't3time');
        if (t3 < MIN_PERIOD_NS || t3 > MAX_PERIOD_NS) throw new ApiError(aErrRange, `t3time ${t3} out of range ${MIN_PERIOD_NS}..${MAX_PERIOD_NS} ns`);
        if (s.num(k(i, 't2')) > t3) throw new ApiError(aErrRange, `t3time ${t3} is below t2time ${s.num(k(i, 't2'))}; lower t2time first`);
        s.set(k(i, 't3'), t3);
        apply(i);
      },
      t2time: (i, _p, v) => {
        const t2 = asNumber(v, 't2time');
        const t3 = s.num(k(i, 't3'));
        if (t2 > t3) throw new ApiError(aErrRange, `t2time ${t2} out of range 0..${t3} (t3time)`);
        s.set(k(i, 't2'), t2);
        apply(i);
      },
    },
  });
  return { entity, apply: () => pins.forEach((_p, i) => apply(i)) };
}
