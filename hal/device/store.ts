// store: slots kept as Preference blobs (NVS on ESP32), each with an enabled flag and a write lock that
// persist at once (they describe the slot, not an operating parameter). Nothing on a generic board
// writes slot contents yet (no pointer entity, no bulk capture), so slotsize reads the stored blob's size.

import Preference from 'preference';
import { ApiError, aErrPermission, aErrRange } from '../../src/api/errors';
import type { EntityHal, EntityOps } from '../types';
import { makeEntity } from './entity';
import { asBool, asNumber } from './values';

type Op = EntityOps['store'];
/** Preference domain of the slots (≤ 15 characters for NVS). */
const DOMAIN = 'store';

export function createStore(slots: number, capacity: number): EntityHal<Op> {
  const flag = (slot: number, what: string, dflt: boolean): boolean => {
    const v = Preference.get(DOMAIN, 's' + slot + what);
    return typeof v === 'boolean' ? v : dflt;
  };
  const setFlag = (slot: number, what: string, v: boolean): void => Preference.set(DOMAIN, 's' + slot + what, v);
  const checkSlot = (slot: number): number => {
    if (!(slot >= 0 && slot < slots)) throw new ApiError(aErrRange, `slot ${slot} out of range 0..${slots - 1}`);
    return slot;
  };
  const enable = (v: unknown, on: boolean): void => {
    const slot = checkSlot(asNumber(v as number, 'slot'));
    if (flag(slot, 'lock', false)) throw new ApiError(aErrPermission, `slot ${slot} is locked`);
    setFlag(slot, 'en', on);
  };
  return makeEntity('store', {
    count: 1,
    limit: (_i, param) => (param === 'slot' ? slots : 0),
    get: {
      slotstate: (_i, p) => flag(p[0], 'en', true),
      lock: (_i, p) => flag(p[0], 'lock', false),
      slotcapacity: () => capacity,
      slotsize: (_i, p) => {
        const data = Preference.get(DOMAIN, 's' + p[0] + 'data');
        return data instanceof ArrayBuffer ? data.byteLength : 0;
      },
    },
    set: {
      slotenable: (_i, _p, v) => enable(v, true),
      slotdisable: (_i, _p, v) => enable(v, false),
      lock: (_i, p, v) => setFlag(p[0], 'lock', asBool(v, 'lock')),
    },
  });
}
