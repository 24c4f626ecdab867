// store: slots kept as Preference blobs (NVS on ESP32), each with an enabled flag and a write lock that
// persist at once (they describe the slot, not an operating parameter). Nothing on a generic board
// writes slot contents yet (no pointer entity, no bulk capture), so slotsize reads the stored blob's size.
// A locked slot refuses enable/disable with 403 aErrPermission (hal/kit/store-rules.ts, as the simulator).

import { ApiError, aErrIO } from '../kit/errors';
import { checkUnlocked } from '../kit/store-rules';
import { deepFreeze } from '../../util/freeze';
import type { EntityOps, OpLimits, ValueOf, ValuesOf } from '../types';
import { DeviceEntity } from './entity';
import { READ, WRITE, type OpTable } from './op-table';
import type { PreferenceStore, Settings } from './settings';
import { asBool, asNumber } from '../kit/value-guards';

type Op = EntityOps['store'];
/** Preference domain of the slots (≤ 15 characters for NVS). */
const DOMAIN = 'store';

const OPS: OpTable<ValuesOf<'store'>> = deepFreeze({
  slotstate: { code: READ },
  slotenable: { code: WRITE }, // limits: the board's slots (below)
  slotdisable: { code: WRITE },
  lock: { code: READ | WRITE },
  slotcapacity: { code: READ },
  slotsize: { code: READ },
});

function flag(prefs: PreferenceStore, slot: number, what: string, dflt: boolean): boolean {
  const v = prefs.get(DOMAIN, 's' + slot + what);
  return typeof v === 'boolean' ? v : dflt;
}

export class StoreEntity extends DeviceEntity<ValuesOf<'store'>> {
  private readonly slots: number;
  private readonly capacity: number;
  /** slotenable / slotdisable take a slot number 0..slots-1. */
  private readonly slotLimits: OpLimits;

  constructor(s: Settings, slots: number, capacity: number) {
    super('store', OPS, 1, s, 'sto.');
    this.slots = slots;
    this.capacity = capacity;
    this.slotLimits = Object.freeze({ min: 0, max: slots - 1 });
  }

  override limit(_index: number, param: string): number {
    return param === 'slot' ? this.slots : 0;
  }

  override limits(op: Op): OpLimits | null {
    return op === 'slotenable' || op === 'slotdisable' ? this.slotLimits : super.limits(op);
  }

  protected override read(_i: number, op: Op, p: readonly number[]): ValueOf<'store'> {
    switch (op) {
      case 'slotstate': return flag(this.settings.prefs, p[0], 'en', true);
      case 'lock': return flag(this.settings.prefs, p[0], 'lock', false);
      case 'slotcapacity': return this.capacity;
    }
    const data = this.settings.prefs.get(DOMAIN, 's' + p[0] + 'data'); // slotsize
    return data instanceof ArrayBuffer ? data.byteLength : 0;
  }

  protected override write(i: number, op: Op, p: readonly number[], v: ValueOf<'store'>): void {
    if (op === 'lock') {
      this.keep('s' + p[0] + 'lock', asBool(v, 'lock'));
      return;
    }
    const slot = asNumber(v, 'slot');
    checkUnlocked(i, slot, flag(this.settings.prefs, slot, 'lock', false));
    this.keep('s' + slot + 'en', op === 'slotenable');
  }

  /** A flag to Preference (NVS): a failed write is aErrIO, and the flag reads as before. */
  private keep(key: string, value: boolean): void {
    try {
      this.settings.prefs.set(DOMAIN, key, value);
    } catch (e) {
      throw new ApiError(aErrIO, `store: ${key} not written (${(e as Error).message})`);
    }
  }
}
Object.freeze(StoreEntity.prototype);
