// What the router hands the handler: per entity, per operation, per number of path parameters, the
// forms that match and what each method picks among them (DECISIONS.md §Requests: GET reads or runs
// an action, HEAD reads but never runs one, PUT sets), the form a PUT reads back with, and the Allow
// value. Made once from the route table and deep-frozen (flash on a module): per request, picking a
// form is one property read.

import { ENTITY_NAMES, MAX_PATH_PARAMS, operationsOf, routeForms, UNSUPPORTED_ENTITIES, type Route } from './routes';
import { deepFreeze } from '../util/freeze';

export interface Forms {
  /** The operation's forms taking this many path parameters (one, or a GET and a PUT form). */
  readonly routes: readonly Route[];
  /** The form each method runs, or null when the path does not offer the method. */
  readonly get: Route | null;
  readonly head: Route | null;
  readonly put: Route | null;
  /** The form a PUT's answer reads back with (a GET that reads a value), or null: the PUT answers {}. */
  readonly readBack: Route | null;
  /** GET, HEAD unless an action, PUT, OPTIONS: what these forms offer. */
  readonly allow: string;
}

/** An entity's operations (lower case), each to its Forms by path-parameter count (null: none). */
export type EntityForms = { readonly [op: string]: readonly (Forms | null)[] | undefined };

/** The entry of an entity the spec lists as unsupported (app, i2c): every operation answers 501. */
export const UNSUPPORTED: EntityForms = deepFreeze(Object.create(null) as EntityForms);

function formsOf(routes: Route[]): Forms | null {
  if (routes.length === 0) return null;
  let get: Route | null = null;
  let head: Route | null = null;
  let put: Route | null = null;
  for (const r of routes) {
    if (!get && r.get !== '-') get = r;
    if (!head && r.get !== '-' && r.get !== 'none') head = r;
    if (!put && r.put !== '-') put = r;
  }
  return { routes, get, head, put, readBack: head, allow: routes[0].allow };
}

function build(): { [entity: string]: EntityForms } {
  const table: { [entity: string]: { [op: string]: (Forms | null)[] } } = Object.create(null);
  for (const entity of ENTITY_NAMES) {
    if (UNSUPPORTED_ENTITIES.indexOf(entity) >= 0) continue;
    const ops: { [op: string]: (Forms | null)[] } = Object.create(null);
    for (const op of operationsOf(entity)) {
      const lists: (Forms | null)[] = [];
      for (let n = 0; n <= MAX_PATH_PARAMS; n++) lists.push(formsOf(routeForms(entity, op)!.filter((r) => r.params.length === n)));
      ops[op] = lists;
    }
    table[entity] = ops;
  }
  for (const entity of UNSUPPORTED_ENTITIES) table[entity] = UNSUPPORTED as { [op: string]: (Forms | null)[] };
  return table;
}

/**
 * entity (lower case) -> its EntityForms, or UNSUPPORTED; undefined for a name that is no entity.
 * A plain object with no prototype: a segment like `__proto__` finds nothing.
 */
export const ENTITY_FORMS: { readonly [entity: string]: EntityForms | undefined } = deepFreeze(build());
