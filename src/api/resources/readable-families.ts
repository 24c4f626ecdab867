// Which metric families some module of a server can read, found once: a module's HAL answers the same
// `supports` for as long as it runs, and a board reads a handful of the route table's families, so a
// scrape that opened every family (its route row split, its name and help made, every module asked)
// spent most of its work on families no module has (on the Pico W, 15 M of the core's cycles for 677
// bytes). Kept as a string of family numbers (METRIC_ROUTES indexes) as character codes: one slot and
// a byte a family, where an array would take a slot a family.

import { routeRow } from '../route/route-table';
import { METRIC_ROUTES } from './metric-table';
import type { EntityHal, ModuleHal } from '../../../hal/types';

type Halls = { readonly [name: string]: EntityHal | undefined };

/** The families (METRIC_ROUTES indexes, as character codes) that at least one of `devices` reads. */
export function readableFamilies(devices: readonly ModuleHal[]): string {
  let out = '';
  for (let i = 0; i < METRIC_ROUTES.length; i++) {
    const [entity, op] = routeRow(METRIC_ROUTES[i]);
    for (const d of devices) {
      const hal = (d.entities as Halls)[entity];
      if (hal && hal.count > 0 && hal.supports(op)) {
        out += String.fromCharCode(i);
        break;
      }
    }
  }
  return out;
}
