// The routes of a module's device description (GET /api/v1/device/{serial}: entities, their count,
// operations with their types, bounds and path parameters) and, for a setting, a value other than
// its current one that the description says it accepts.

export interface Operation {
  get: string; put?: string; type: string; params: { name: string; min: number; max: number }[];
  min?: number; max?: number; values?: number[];
}
interface Description { response: { entities: Record<string, { count: number; operations: Record<string, Operation> }> } }

/** Actions that restart the module or wipe its settings: left out of a walk that reads and puts back. */
export const NOT_WALKED = ['system/reset', 'system/resetdevicetofactorydefaults'];

/** Every route (entity/index/operation[/param…]) with its operation, in the description's order. */
export function routesOf(d: Description): [string, Operation][] {
  const routes: [string, Operation][] = [];
  for (const [entity, { count, operations }] of Object.entries(d.response.entities)) {
    for (let index = 0; index < count; index++) {
      for (const [name, op] of Object.entries(operations)) {
        if (NOT_WALKED.includes(`${entity}/${name}`)) continue;
        let tails = [''];
        for (const p of op.params) tails = tails.flatMap((t) => Array.from({ length: p.max - p.min + 1 }, (_, i) => `${t}/${p.min + i}`));
        for (const tail of tails) routes.push([`${entity}/${index}/${name}${tail}`, op]);
      }
    }
  }
  return routes;
}

/** A value the operation accepts that differs from `current`; undefined where there is none. */
export function changedValue(op: Operation, current: unknown): unknown {
  if (op.values) return op.values.find((v) => v !== Number(current)); // a bool's too: values [1] is true only
  if (op.type === 'bool') return !current;
  if (op.min !== undefined && op.max !== undefined) return current === op.min ? op.max : op.min;
  if (op.type === 'bytes:ipv4') return current === '10.1.2.3' ? '10.1.2.4' : '10.1.2.3';
  if (op.type === 'bytes:text') return current === 'walked-board' ? 'walked-board-2' : 'walked-board';
  if (op.type === 'string') return current === 'walked' ? 'walked 2' : 'walked';
  return undefined;
}
