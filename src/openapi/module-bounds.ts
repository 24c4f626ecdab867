// What one build's module accepts, for the OpenAPI document: the bounds its description publishes
// (publishedBounds of ../api/values/bounds.ts, the same data the API and the HAL enforce) for each
// settable integer PUT. Build-time code: tools/gen-openapi.mjs reads a module made for the purpose.

import { routeForms, type Route } from '../api/route/routes';
import { publishedBounds, takesIntegers } from '../api/values/bounds';
import type { EntityHal, ModuleHal, OpLimits } from '../../hal/types';

/** The bounds a PUT route carries in the document; null: this build's module does not publish any. */
export type PutBounds = (r: Route) => OpLimits | null;

/** The module the document's bounds come from, named in its text ("the simulator's everything profile"). */
export interface BoundsSource {
  readonly bounds: PutBounds;
  readonly from: string;
}

/**
 * The published bounds of `m`: for an integer PUT of an operation the module has and can set, what
 * GET /api/v1/device/{serial} publishes for it (the first PUT form's type and range column with the
 * module's limits, as src/api/resources/describe.ts does); null for any other route.
 */
export function moduleBounds(m: ModuleHal): PutBounds {
  const entities = m.entities as { readonly [name: string]: EntityHal | undefined };
  return (r) => {
    const hal = entities[r.entity];
    if (!takesIntegers(r)) return null;
    if (!hal || !hal.supports(r.op)) return null;
    const own = hal.limits ? hal.limits(r.op) : null;
    if (own && own.readOnly) return null;
    const putForm = routeForms(r.entity, r.op)!.find((f) => f.put !== '-') ?? r;
    return publishedBounds(putForm, own);
  };
}
