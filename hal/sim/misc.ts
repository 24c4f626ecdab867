// Small entities: temperature (an ambient sensor with extremes since power-up), relay (coil voltage
// follows enable), equalizer (plain settings per channel), and app/i2c (present but unsupported).

import { ApiError, aErrUnimplemented } from '../kit/errors';
import type { EntityName, HalOf } from '../types';
import type { SimContext } from './context';
import { makeEntity } from './entity';
import { noise, slot } from './values';

export function createTemperature(ctx: SimContext): HalOf<'temperature'> {
  const n = ctx.count('temperature');
  /** Ambient near the module: 24 °C with a slow 15-minute swing. */
  const read = (i: number) => {
    const t = ctx.wall() / 1000;
    return Math.round(24_000_000 + 1_500_000 * Math.sin((2 * Math.PI * t) / 900 + i) + 30_000 * noise(ctx.serial, 900 + i, slot(ctx.wall())));
  };
  let min: number[] = [];
  let max: number[] = [];
  const powerUp = () => {
    min = [];
    max = [];
    for (let i = 0; i < n; i++) min[i] = max[i] = read(i);
  };
  powerUp();
  ctx.onReboot(powerUp);
  ctx.onAdvance(() => {
    for (let i = 0; i < n; i++) {
      const v = read(i);
      if (v < min[i]) min[i] = v;
      if (v > max[i]) max[i] = v;
    }
  });
  return makeEntity(ctx, 'temperature', {
    get: { microcelsius: (i) => read(i), minimummicrocelsius: (i) => min[i], maximummicrocelsius: (i) => max[i] },
  });
}

export function createRelay(ctx: SimContext): HalOf<'relay'> {
  const regs = ctx.registers('relay', { enable: false });
  return makeEntity(ctx, 'relay', {
    registers: regs,
    // Coil voltage: 5 V driven while the relay is on.
    get: { voltage: (i) => (regs.bool(i, 'enable') ? Math.round(5_000_000 + 5000 * noise(ctx.serial, 1000 + i, slot(ctx.wall()))) : 0) },
  });
}

export function createEqualizer(ctx: SimContext): HalOf<'equalizer'> {
  const channels = ctx.profile.equalizerChannels;
  return makeEntity(ctx, 'equalizer', {
    registers: ctx.registers('equalizer', { receiverconfig: 0, transmitterconfig: 0 }),
    limit: (_i, param) => (param === 'channel' ? channels : 0),
  });
}

/** An entity the module lists but cannot drive yet: every operation 501 (profile.unsupported). */
export function createUnsupported<E extends EntityName>(ctx: SimContext, name: E): HalOf<E> {
  const no = () => { throw new ApiError(aErrUnimplemented, `${name} is not supported at this time`); };
  return { ...makeEntity(ctx, name, {}), get: no, set: no, run: no };
}
