// mux: an analog/data multiplexer. `state` is what is actually connected: the selected channel
// (config 0), the split mask (config 1), or the highest-priority channel with a live input (config 2).

import type { HalOf } from '../types';
import type { SimContext } from './context';
import { makeEntity } from './entity';
import { indexOf, range } from './profile-limits';
import { asNumber, checkIndex } from '../kit/value-guards';
import { noise, slot } from './values';

const CONFIG_SPLIT = 1;
const CONFIG_PRIORITY = 2;

export function createMux(ctx: SimContext): HalOf<'mux'> {
  const channels = ctx.profile.muxChannels;
  const mask = channels >= 32 ? 0xffffffff : (1 << channels) - 1;
  const regs = ctx.registers('mux', { enable: false, channel: 0, config: 0, split: 0, datadirection: 0 });
  /** Input on each channel: channel c carries 5 V - c x 1.1 V (the last ones nothing). */
  const voltage = (i: number, c: number) => {
    const v = 5_000_000 - 1_100_000 * c;
    return v > 0 ? Math.round(v + 2000 * noise(ctx.serial, 800 + 16 * i + c, slot(ctx.wall()))) : 0;
  };
  return makeEntity(ctx, 'mux', {
    registers: regs,
    limit: (_i, param) => (param === 'channel' ? channels : 0),
    // split: bit N connects channel N, so only the bits of existing channels.
    limits: { channel: indexOf(channels), split: range(0, mask >>> 0) },
    get: {
      voltage: (i, p) => voltage(i, checkIndex('mux channel', p[0], channels)),
      state: (i) => {
        if (!regs.bool(i, 'enable')) return 0;
        const config = regs.num(i, 'config');
        if (config === CONFIG_SPLIT) return regs.num(i, 'split') & mask;
        if (config === CONFIG_PRIORITY) {
          for (let c = 0; c < channels; c++) if (voltage(i, c) > 0) return 1 << c;
          return 0;
        }
        return (1 << regs.num(i, 'channel')) >>> 0;
      },
    },
    set: {
      channel: (i, _p, v) => regs.write(i, 'channel', [], asNumber(v, 'channel')),
      split: (i, _p, v) => regs.write(i, 'split', [], asNumber(v, 'split')),
    },
  });
}
