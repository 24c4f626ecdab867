// userconfig: save, load or factory-reset the settings of one entity instance, named by its BrainStem
// command code (docs/api.md §Units and codes) and index. Settings are the entity's registers (registers.ts);
// entities with none (clock, store) succeed with nothing to do.

import { ApiError, aErrRange } from '../kit/errors';
import type { EntityName, HalOf } from '../types';
import type { SimContext } from './context';
import { makeEntity } from './entity';

export const COMMAND_CODES: { readonly [code: number]: EntityName } = {
  3: 'system', 6: 'mux', 7: 'pointer', 13: 'servo', 14: 'signal', 15: 'equalizer', 18: 'usb', 30: 'analog',
  31: 'digital', 32: 'rail', 33: 'temperature', 34: 'relay', 35: 'uart', 36: 'powerdelivery', 37: 'port',
  38: 'usbsystem', 39: 'ethernet', 40: 'poe', 41: 'hdbaset', 77: 'store', 79: 'timer', 83: 'clock',
};

export function createUserConfig(ctx: SimContext): HalOf<'userconfig'> {
  const target = (p: readonly number[]): [EntityName, number] => {
    const entity = COMMAND_CODES[p[0]];
    if (!entity) throw new ApiError(aErrRange, `command ${p[0]} names no entity`);
    const n = ctx.count(entity);
    if (n === 0) throw new ApiError(aErrRange, `command ${p[0]} (${entity}): this module has no ${entity}`);
    if (p[1] >= n) throw new ApiError(aErrRange, `${entity} index ${p[1]} out of range 0..${n - 1}`);
    return [entity, p[1]];
  };
  return makeEntity(ctx, 'userconfig', {
    run: {
      saveentitytostore: (_i, p) => ctx.saveEntity(...target(p)),
      loadentityfromstore: (_i, p) => ctx.loadEntity(...target(p)),
      // The instance's settings go back to factory now; what was saved stays saved.
      resetentitytofactorydefaults: (_i, p) => ctx.factoryEntity(...target(p)),
    },
  });
}
