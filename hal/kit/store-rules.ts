// The store's lock, for both HALs: a locked slot refuses every change to it (its contents, wherever a
// HAL writes them, and slotenable / slotdisable) with 403 aErrPermission, and says what to change.

import { ApiError, aErrPermission } from './errors';

/** aErrPermission when slot `slot` of store `store` is locked; nothing otherwise. */
export function checkUnlocked(store: number, slot: number, locked: boolean): void {
  if (locked) throw new ApiError(aErrPermission, `store ${store} slot ${slot} is locked: set store/${store}/lock/${slot} to false first`);
}
