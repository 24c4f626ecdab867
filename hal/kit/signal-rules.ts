// A signal's active time t2 never exceeds its period t3, for both HALs: a value the other one forbids
// is module state, 409 aErrMode, saying which to change first.

import { ApiError, aErrMode } from './errors';

/** aErrMode unless setting `op` of signal `index` to `value` keeps t2time <= t3time. */
export function checkSignalTimes(index: number, op: string, value: number, t2: number, t3: number): void {
  if (op === 't3time' && value < t2) {
    throw new ApiError(aErrMode, `signal ${index} t3time ${value} is below t2time ${t2}: lower signal/${index}/t2time first`);
  }
  if (op === 't2time' && value > t3) {
    throw new ApiError(aErrMode, `signal ${index} t2time ${value} is above t3time ${t3}: raise signal/${index}/t3time first`);
  }
}
