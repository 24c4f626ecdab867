// The simulated module types, by name: the default EVERYTHING module plus profiles modelled on real
// modules. A new module type is one more data file here and one line in PROFILES.

import { EVERYTHING, type SimProfile } from '../profile';
import { MTM_PM_1 } from './mtm-pm-1';
import { USBHUB3P } from './usbhub3p';
import { USBSTEM } from './usbstem';

export { MTM_PM_1, USBHUB3P, USBSTEM };

export const PROFILES: readonly SimProfile[] = [EVERYTHING, USBHUB3P, MTM_PM_1, USBSTEM];

/** Names compare without case, '-', '_' or spaces: "USBHub3p", "MTM-PM-1" and "mtm_pm_1" all match. */
function key(name: string): string {
  return name.toLowerCase().replace(/[-_ ]/g, '');
}

/** The profile of that name, or undefined. */
export function findProfile(name: string): SimProfile | undefined {
  const k = key(name);
  for (const p of PROFILES) if (key(p.name) === k) return p;
  return undefined;
}
