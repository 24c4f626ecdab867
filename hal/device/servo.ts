// servo: RC servo outputs at 50 Hz. position 64 = 1 ms pulse, 192 = 2 ms (so 1/64 ms per step); reverse
// mirrors it around 128. Disabled: no pulses (the output is closed, pin low).

import type { EntityHal, EntityOps } from '../types';
import { makeEntity } from './entity';
import { PwmPin } from './pwm-pin';
import type { Settings } from './settings';
import { asBool, asNumber } from './values';

type Op = EntityOps['servo'];
const FRAME_US = 20000;

export interface OutputModel<O extends string> {
  readonly entity: EntityHal<O>;
  apply(): void;
}

export function createServo(s: Settings, pins: readonly number[]): OutputModel<Op> {
  const out = pins.map((p) => new PwmPin(p));
  const k = (i: number, what: string) => 'srv' + i + '.' + what;
  pins.forEach((_p, i) => {
    s.define(k(i, 'en'), false);
    s.define(k(i, 'pos'), 128);
    s.define(k(i, 'rev'), false);
  });
  const apply = (i: number): void => {
    if (!s.bool(k(i, 'en'))) return out[i].stop();
    const pos = s.bool(k(i, 'rev')) ? 256 - s.num(k(i, 'pos')) : s.num(k(i, 'pos'));
    out[i].drive(1000000 / FRAME_US, (pos * 1000) / 64 / FRAME_US);
  };
  const setter = (what: string, decode: (v: number | boolean) => number | boolean) =>
    (i: number, _p: readonly number[], v: unknown) => {
      s.set(k(i, what), decode(v as number | boolean));
      apply(i);
    };
  const entity = makeEntity('servo', {
    count: pins.length,
    get: {
      enable: (i) => s.bool(k(i, 'en')),
      position: (i) => s.num(k(i, 'pos')),
      reverse: (i) => s.bool(k(i, 'rev')),
    },
    set: {
      enable: setter('en', (v) => asBool(v, 'enable')),
      position: setter('pos', (v) => asNumber(v, 'position')),
      reverse: setter('rev', (v) => asBool(v, 'reverse')),
    },
  });
  return { entity, apply: () => pins.forEach((_p, i) => apply(i)) };
}
