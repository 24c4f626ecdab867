// store: numbered slots of bytes per store handle (0 internal flash, 1 RAM...). Internal slots persist in
// SimStorage; RAM slots are wiped by a reset. Every writer (pointer transfers, bulk capture, event log)
// goes through write(), which honours the slot's lock (hal/kit/store-rules.ts), as slotenable/slotdisable do.

import { ApiError, aErrSize } from '../kit/errors';
import { checkUnlocked } from '../kit/store-rules';
import type { HalOf } from '../types';
import { ERR_STORE_LOCKED } from '../kit/error-word';
import type { SimContext } from './context';
import { makeEntity } from './entity';
import { indexOf } from './profile-limits';
import type { SavedSlot } from './persist';
import { asBool, asNumber, checkIndex } from '../kit/value-guards';

interface Slot {
  data: Uint8Array;
  size: number;
  enabled: boolean;
  locked: boolean;
}

export class StoreModel {
  private stores: Slot[][] = [];

  constructor(private readonly ctx: SimContext) {
    this.powerUp(true);
    ctx.onReboot(() => this.powerUp(false));
  }

  /** Handles of the stores this module has (0..n-1). */
  get storeCount(): number {
    return this.ctx.profile.stores.length;
  }

  slotCount(store: number): number {
    return this.ctx.profile.stores[store]?.slots.length ?? 0;
  }

  /** aErrRange unless the store exists on this module. */
  checkStore(store: number): number {
    return checkIndex('store', store, this.storeCount);
  }

  slot(store: number, slot: number): Slot {
    this.checkStore(store);
    checkIndex(`store ${store} slot`, slot, this.slotCount(store));
    return this.stores[store][slot];
  }

  read(store: number, slot: number): Uint8Array {
    const s = this.slot(store, slot);
    return s.data.slice(0, s.size);
  }

  /**
   * Replaces a slot's contents; bytes beyond the capacity are dropped. Returns the bytes kept.
   * A locked slot answers aErrPermission and is left as it was.
   */
  write(store: number, slot: number, bytes: Uint8Array): number {
    const s = this.slot(store, slot);
    if (s.locked) this.ctx.flagError(ERR_STORE_LOCKED, `write to locked slot ${store}/${slot} refused`);
    checkUnlocked(store, slot, s.locked);
    const n = Math.min(bytes.length, s.data.length);
    s.data.fill(0);
    s.data.set(bytes.subarray(0, n));
    s.size = n;
    this.changed(store);
    return n;
  }

  /** A locked slot answers aErrPermission and keeps its state. */
  setEnabled(store: number, slot: number, on: boolean): void {
    const s = this.slot(store, slot);
    checkUnlocked(store, slot, s.locked);
    s.enabled = on;
    this.changed(store);
  }

  setLocked(store: number, slot: number, on: boolean): void {
    this.slot(store, slot).locked = on;
    this.changed(store);
  }

  private changed(store: number): void {
    if (!this.ctx.profile.stores[store].persistent) return;
    const saved: SavedSlot[] = this.stores[store].map((s) => ({
      data: Array.from(s.data.subarray(0, s.size)), enabled: s.enabled, locked: s.locked,
    }));
    this.ctx.persist.setFlash(store, saved);
    this.ctx.persist.write();
  }

  /** Persistent stores come back from SimStorage; volatile ones start empty (at power-up and reset). */
  private powerUp(first: boolean): void {
    this.ctx.profile.stores.forEach((spec, i) => {
      if (!first && spec.persistent) return;
      const saved = spec.persistent ? this.ctx.persist.flashOf(i) : undefined;
      this.stores[i] = spec.slots.map((capacity, n) => {
        const s: Slot = { data: new Uint8Array(capacity), size: 0, enabled: false, locked: false };
        const from = saved?.[n];
        if (from) {
          const bytes = Array.isArray(from.data) ? from.data.slice(0, capacity) : [];
          s.data.set(bytes);
          s.size = bytes.length;
          s.enabled = from.enabled === true;
          s.locked = from.locked === true;
        }
        return s;
      });
    });
  }
}

export function createStore(ctx: SimContext, model: StoreModel): HalOf<'store'> {
  // The store entity's index is the store handle: store/1/... is the RAM store.
  const slotParam = (i: number, p: readonly number[]) => model.slot(i, p[0]);
  // A slot number is published up to the largest store's; a store with fewer slots refuses the rest
  // (400 aErrRange naming its own slots), as a path's {slot} does.
  let slots = 0;
  for (let i = 0; i < model.storeCount; i++) slots = Math.max(slots, model.slotCount(i));
  const slot = indexOf(slots);
  return makeEntity(ctx, 'store', {
    limits: { slotenable: slot, slotdisable: slot },
    limit: (index, param) => (param === 'slot' ? model.slotCount(index) : 0),
    get: {
      slotstate: (i, p) => slotParam(i, p).enabled,
      lock: (i, p) => slotParam(i, p).locked,
      slotcapacity: (i, p) => slotParam(i, p).data.length,
      slotsize: (i, p) => slotParam(i, p).size,
      slotdata: (i, p) => model.read(i, p[0]),
    },
    set: {
      slotenable: (i, _p, v) => model.setEnabled(i, asNumber(v, 'slot'), true),
      slotdisable: (i, _p, v) => model.setEnabled(i, asNumber(v, 'slot'), false),
      lock: (i, p, v) => model.setLocked(i, p[0], asBool(v, 'lock')),
      slotdata: (i, p, v) => {
        const capacity = slotParam(i, p).data.length;
        if (v.length > capacity) throw new ApiError(aErrSize, `${v.length} bytes do not fit store ${i} slot ${p[0]} (capacity ${capacity})`);
        model.write(i, p[0], v);
      },
    },
  });
}
