// Consistency rules a profile's data must keep, because entity code sizes its models from the lists
// (stores, rails, ports, PD partners) and the API core trusts `counts`. Returns what is wrong, [] if
// nothing; tests run it over every profile, and the simulator refuses a profile that fails it.

import type { EntityName } from '../../types';
import { countOf, type SimProfile } from '../profile';

export function profileProblems(p: SimProfile): string[] {
  const out: string[] = [];
  const n = (e: EntityName) => countOf(p, e);
  const same = (what: string, count: number, listed: number) => {
    if (count !== listed) out.push(`${p.name}: ${what} counts ${count} but ${listed} are described`);
  };
  if (n('system') !== 1) out.push(`${p.name}: a module has exactly one system entity`);
  same('store', n('store'), p.stores.length);
  same('rail', n('rail'), p.rails.length);
  same('powerdelivery', n('powerdelivery'), p.pdPartners.length);
  // port, usb channels and usbsystem lists are all the one port model, sized by portDevices.
  if (n('port') !== 0) same('port', n('port'), p.portDevices.length);
  if ((n('usb') || n('usbsystem')) && p.portDevices.length === 0) out.push(`${p.name}: usb/usbsystem without ports`);
  if (n('usb') > 1 || n('usbsystem') > 1) out.push(`${p.name}: one usb hub and one usbsystem at most`);
  // A servo is driven by the digital pin of the same index.
  if (n('servo') > n('digital')) out.push(`${p.name}: servo ${n('servo')} needs as many digital pins (${n('digital')})`);
  if (n('digital') > 32) out.push(`${p.name}: digitalInputs holds 32 pins at most`);
  // Limits are published per entity (docs/api.md §What a module has and accepts): every rail has one rating.
  for (const r of p.rails) {
    const r0 = p.rails[0];
    if (r.maxVoltage !== r0.maxVoltage || r.maxCurrent !== r0.maxCurrent || r.maxPower !== r0.maxPower || r.switchable !== r0.switchable) {
      out.push(`${p.name}: rails must share one rating (max voltage, current, power, switchable)`);
      break;
    }
  }
  if (!(p.model >= 0 && p.model <= 255)) out.push(`${p.name}: model ${p.model} is not a u8`);
  return out;
}
