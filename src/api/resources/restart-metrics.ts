// brainstem_restarts_total{serial, cause}: the family GET /metrics sends after the measurements
// (metrics.ts), for each module that counts its restarts (ModuleHal.restartCount: the device firmware;
// hal/device/restarts.ts says how each cause is told). One module's samples a call.

import { serialText } from '../route/serial';
import { RESTART_CAUSES } from '../../../hal/kit/restart-causes';
import type { ModuleHal } from '../../../hal/types';
const NAME = 'brainstem_restarts_total';
const HEAD = '# HELP ' + NAME + ' Restarts of the module by cause (watchdog, power, update, reset, crash), counted across restarts\n'
  + '# TYPE ' + NAME + ' counter\n';

/** The family's text for module `k` (with the HELP and TYPE lines before the first module that counts). */
export function restartSamples(devices: readonly ModuleHal[], k: number): string {
  const d = devices[k];
  if (!d.restartCount) return '';
  let first = 0;
  while (first < k && !devices[first].restartCount) first++;
  let out = first === k ? HEAD : '';
  const prefix = NAME + '{serial="' + serialText(d.serialNumber) + '",cause="';
  for (let c = 0; c < RESTART_CAUSES.length; c++) {
    out += prefix + RESTART_CAUSES[c] + '"} ' + d.restartCount(RESTART_CAUSES[c]) + '\n';
  }
  return out;
}
