// pointer: a cursor into the module's scratchpad. char/short/int read and write 1/2/4 bytes
// little-endian at the cursor; in mode 1 the cursor moves past what was accessed. Transfers copy the pad
// to or from a slot of the chosen store.

import { ApiError, aErrMode } from '../kit/errors';
import type { HalOf } from '../types';
import type { SimContext } from './context';
import { makeEntity } from './entity';
import type { StoreModel } from './store';
import { indexOf } from './limits';
import { asNumber } from '../kit/value-guards';

const WIDTH = { char: 1, short: 2, int: 4 } as const;
type Element = keyof typeof WIDTH;

export function createPointer(ctx: SimContext, stores: StoreModel): HalOf<'pointer'> {
  const size = ctx.profile.padSize;
  // The scratchpad is shared by every pointer instance (one pad per module), its content volatile.
  let pad = new Uint8Array(size);
  ctx.onReboot(() => { pad = new Uint8Array(size); });
  const regs = ctx.registers('pointer', { offset: 0, mode: 0, transferstore: 0 }, ['offset']);

  const access = (i: number, el: Element): number => {
    const at = regs.num(i, 'offset');
    const w = WIDTH[el];
    if (at + w > size) throw new ApiError(aErrMode, `pointer ${i} offset ${at}: a ${w}-byte ${el} runs past the ${size}-byte scratchpad; set offset to ${size - w} or less first`);
    return at;
  };
  const step = (i: number, at: number, el: Element): void => {
    if (regs.num(i, 'mode') === 1) regs.write(i, 'offset', [], at + WIDTH[el]);
  };
  const getter = (el: Element) => (i: number): number => {
    const at = access(i, el);
    let v = 0;
    for (let k = WIDTH[el] - 1; k >= 0; k--) v = v * 256 + pad[at + k];
    step(i, at, el);
    return v;
  };
  const setter = (el: Element) => (i: number, _p: readonly number[], value: number): void => {
    const at = access(i, el);
    let v = asNumber(value, `pointer/${el}`) >>> 0;
    for (let k = 0; k < WIDTH[el]; k++) {
      pad[at + k] = v & 0xff;
      v = Math.floor(v / 256);
    }
    step(i, at, el);
  };

  // Slots of the store chosen by transferstore: the published bound is the largest store's; a slot
  // the chosen store lacks depends on that choice (409, saying so).
  let slots = 0;
  for (let s = 0; s < stores.storeCount; s++) slots = Math.max(slots, stores.slotCount(s));
  const slotOf = (i: number, v: number): number => {
    const slot = asNumber(v, 'slot');
    const store = regs.num(i, 'transferstore');
    const n = stores.slotCount(store);
    if (slot >= n) throw new ApiError(aErrMode, `pointer ${i}: store ${store} (transferstore) has ${n} slots, no slot ${slot}; choose another transferstore first`);
    return slot;
  };
  return makeEntity(ctx, 'pointer', {
    registers: regs,
    limits: { offset: indexOf(size), transferstore: indexOf(stores.storeCount), transfertostore: indexOf(slots), transferfromstore: indexOf(slots) },
    get: { char: getter('char'), short: getter('short'), int: getter('int') },
    set: {
      char: setter('char'),
      short: setter('short'),
      int: setter('int'),
      offset: (i, _p, v) => regs.write(i, 'offset', [], asNumber(v, 'offset')),
      // Only the stores this module has (stores beyond its list are absent).
      transferstore: (i, _p, v) => regs.write(i, 'transferstore', [], asNumber(v, 'transferstore')),
      // The whole pad goes to the slot (clamped to its capacity): slotsize then says how much landed.
      transfertostore: (i, _p, v) => { stores.write(regs.num(i, 'transferstore'), slotOf(i, v), pad); },
      // The slot's bytes land at the start of the pad; the rest of the pad is left as it was.
      transferfromstore: (i, _p, v) => {
        const bytes = stores.read(regs.num(i, 'transferstore'), slotOf(i, v));
        pad.set(bytes.subarray(0, size));
      },
    },
  });
}
