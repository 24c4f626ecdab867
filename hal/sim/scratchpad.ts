// The module's scratchpad and the pointers' access to it: char/short/int read and write 1/2/4 bytes
// little-endian at a pointer's offset, which in mode 1 moves past what was accessed; transfers copy
// the pad to or from a slot of the pointer's transferstore. pointer.ts wires it into the entity.

import { ApiError, aErrMode } from '../kit/errors';
import { asNumber } from '../kit/value-guards';
import type { SimContext } from './context';
import type { RegisterFile } from './registers';
import type { StoreModel } from './store';

const WIDTH = { char: 1, short: 2, int: 4 } as const;
export type Element = keyof typeof WIDTH;

export class Scratchpad {
  /** Shared by every pointer instance (one pad per module), its content volatile. */
  private pad: Uint8Array;

  constructor(ctx: SimContext, private readonly regs: RegisterFile, private readonly stores: StoreModel, readonly size: number) {
    this.pad = new Uint8Array(size);
    ctx.onReboot(() => { this.pad = new Uint8Array(size); });
  }

  /** Where pointer i accesses an element: its offset, if the element fits in the pad there. */
  private access(i: number, el: Element): number {
    const at = this.regs.num(i, 'offset');
    const w = WIDTH[el];
    const size = this.size;
    if (at + w > size) throw new ApiError(aErrMode, `pointer ${i} offset ${at}: a ${w}-byte ${el} runs past the ${size}-byte scratchpad; set offset to ${size - w} or less first`);
    return at;
  }

  private step(i: number, at: number, el: Element): void {
    if (this.regs.num(i, 'mode') === 1) this.regs.write(i, 'offset', [], at + WIDTH[el]);
  }

  read(i: number, el: Element): number {
    const at = this.access(i, el);
    let v = 0;
    for (let k = WIDTH[el] - 1; k >= 0; k--) v = v * 256 + this.pad[at + k];
    this.step(i, at, el);
    return v;
  }

  write(i: number, el: Element, value: number): void {
    const at = this.access(i, el);
    let v = asNumber(value, `pointer/${el}`) >>> 0;
    for (let k = 0; k < WIDTH[el]; k++) {
      this.pad[at + k] = v & 0xff;
      v = Math.floor(v / 256);
    }
    this.step(i, at, el);
  }

  /** A slot the chosen store lacks depends on transferstore: 409, saying so. */
  private slotOf(i: number, v: number): number {
    const slot = asNumber(v, 'slot');
    const store = this.regs.num(i, 'transferstore');
    const n = this.stores.slotCount(store);
    if (slot >= n) throw new ApiError(aErrMode, `pointer ${i}: store ${store} (transferstore) has ${n} slots, no slot ${slot}; choose another transferstore first`);
    return slot;
  }

  /** The whole pad goes to the slot (clamped to its capacity): slotsize then says how much landed. */
  toStore(i: number, slot: number): void {
    this.stores.write(this.regs.num(i, 'transferstore'), this.slotOf(i, slot), this.pad);
  }

  /** The slot's bytes land at the start of the pad; the rest of the pad is left as it was. */
  fromStore(i: number, slot: number): void {
    const bytes = this.stores.read(this.regs.num(i, 'transferstore'), this.slotOf(i, slot));
    this.pad.set(bytes.subarray(0, this.size));
  }
}
Object.freeze(Scratchpad.prototype);
