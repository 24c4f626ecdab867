// pointer: a cursor into the module's scratchpad. char/short/int read and write 1/2/4 bytes
// little-endian at the cursor; in mode 1 the cursor moves past what was accessed. Transfers copy the pad
// to or from a slot of the chosen store. The pad and its access rules are scratchpad.ts.

import type { HalOf } from '../types';
import type { SimContext } from './context';
import { makeEntity } from './entity';
import type { StoreModel } from './store';
import { indexOf } from './profile-limits';
import { asNumber } from '../kit/value-guards';
import { Scratchpad, type Element } from './scratchpad';

export function createPointer(ctx: SimContext, stores: StoreModel): HalOf<'pointer'> {
  const regs = ctx.registers('pointer', { offset: 0, mode: 0, transferstore: 0 }, ['offset']);
  const pad = new Scratchpad(ctx, regs, stores, ctx.profile.padSize);
  const getter = (el: Element) => (i: number): number => pad.read(i, el);
  const setter = (el: Element) => (i: number, _p: readonly number[], v: number): void => pad.write(i, el, v);

  // Slots of the store chosen by transferstore: the published bound is the largest store's.
  let slots = 0;
  for (let s = 0; s < stores.storeCount; s++) slots = Math.max(slots, stores.slotCount(s));
  return makeEntity(ctx, 'pointer', {
    registers: regs,
    limits: { offset: indexOf(pad.size), transferstore: indexOf(stores.storeCount), transfertostore: indexOf(slots), transferfromstore: indexOf(slots) },
    get: { char: getter('char'), short: getter('short'), int: getter('int') },
    set: {
      char: setter('char'),
      short: setter('short'),
      int: setter('int'),
      offset: (i, _p, v) => regs.write(i, 'offset', [], asNumber(v, 'offset')),
      // Only the stores this module has (stores beyond its list are absent).
      transferstore: (i, _p, v) => regs.write(i, 'transferstore', [], asNumber(v, 'transferstore')),
      transfertostore: (i, _p, v) => pad.toStore(i, v),
      transferfromstore: (i, _p, v) => pad.fromStore(i, v),
    },
  });
}
