// servo: RC servo outputs at 50 Hz. position 64 = 1 ms pulse, 192 = 2 ms (operations.tsv), so 1/128 ms
// per step from 0.5 ms at 0; reverse mirrors it around 128. Disabled: no pulses (output closed, pin low).
// The PWM runs at 14 bits at 50 Hz (hal/device/ledc.ts): 1.2 µs steps, so every position is its own width.
// An enabled servo holds a PWM channel.

import { deepFreeze } from '../../util/freeze';
import type { ValuesOf } from '../types';
import { DeviceEntity } from './entity';
import type { OpTable } from './op-table';
import { PwmPin, type PwmChannels } from './pwm-pin';
import type { Settings } from './settings';

const FRAME_US = 20000;

const OPS: OpTable<ValuesOf<'servo'>> = deepFreeze({
  enable: { setting: 'en', factory: false },
  position: { setting: 'pos', factory: 128 },
  reverse: { setting: 'rev', factory: false },
});

export class ServoEntity extends DeviceEntity<ValuesOf<'servo'>> {
  private readonly out: PwmPin[];

  constructor(s: Settings, pins: readonly number[], channels: PwmChannels) {
    super('servo', OPS, pins.length, s, 'srv');
    this.out = [];
    for (let i = 0; i < pins.length; i++) this.out.push(new PwmPin(pins[i], 'servo/' + i, channels));
  }

  override boot(): void {
    for (let i = 0; i < this.out.length; i++) this.changed(i);
  }

  protected override changed(i: number): void {
    const s = this.settings;
    if (!s.bool(this.key(i, 'en'))) return this.out[i].stop();
    const pos = s.num(this.key(i, 'pos'));
    const p = s.bool(this.key(i, 'rev')) ? 256 - pos : pos;
    this.out[i].drive(1000000 / FRAME_US, (500 + (p * 1000) / 128) / FRAME_US);
  }
}
Object.freeze(ServoEntity.prototype);
