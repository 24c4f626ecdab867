// What the router hands the handler: per entity, per operation, per number of path parameters, the
// forms that match and what each method picks among them (docs/api.md §Requests and value forms: GET reads or runs
// an action, HEAD reads but never runs one, PUT sets), the form a PUT reads back with, and the Allow
// value. Made once from the route table and deep-frozen (flash on a module): per request, picking a
// form is one property read.

import { ENTITY_NAMES, operationsOf, routeForms, UNSUPPORTED_ENTITIES, type Route } from '../route/routes';
import { deepFreeze } from '../../../util/freeze';
import { keyNames } from '../../../util/known-key';

export interface Forms {
  /** The operation's forms taking this many path parameters (one, or a GET and a PUT form). */
  readonly routes: readonly Route[];
  /**
   * The form each method runs, or null when the path does not offer the method. `head` (a GET that
   * reads a value) is also the form a PUT's answer reads back with; null: the PUT answers {}.
   */
  readonly get: Route | null;
  readonly head: Route | null;
  readonly put: Route | null;
  /** GET, HEAD unless an action, PUT, OPTIONS: what these forms offer. */
  readonly allow: string;
}

/**
 * An entity's operations (lower case), each to its Forms by path-parameter count (index = count; the
 * list ends at the largest count, and null or past the end: no form takes that many).
 */
export type EntityForms = { readonly [op: string]: readonly (Forms | null)[] | undefined };

/** The entry of an entity the spec lists as unsupported (app, i2c): every operation answers 501. */
export const UNSUPPORTED: EntityForms = deepFreeze(Object.create(null) as EntityForms);

function formsOf(routes: readonly Route[]): Forms | null {
  if (routes.length === 0) return null;
  let get: Route | null = null;
  let head: Route | null = null;
  let put: Route | null = null;
  for (const r of routes) {
    if (!get && r.get !== '-') get = r;
    if (!head && r.get !== '-' && r.get !== 'none') head = r;
    if (!put && r.put !== '-') put = r;
  }
  return { routes, get, head, put, allow: routes[0].allow };
}

function build(): { [entity: string]: EntityForms } {
  const table: { [entity: string]: { [op: string]: (Forms | null)[] } } = Object.create(null);
  for (const entity of ENTITY_NAMES) {
    if (UNSUPPORTED_ENTITIES.indexOf(entity) >= 0) continue;
    const ops: { [op: string]: (Forms | null)[] } = Object.create(null);
    for (const op of operationsOf(entity)) {
      const all = routeForms(entity, op)!;
      let most = 0;
      for (const r of all) most = Math.max(most, r.params.length);
      const lists: (Forms | null)[] = [];
      for (let n = 0; n <= most; n++) {
        // The table's own array when every form takes n parameters (most operations): no copy.
        const routes = all.every((r) => r.params.length === n) ? all : all.filter((r) => r.params.length === n);
        lists.push(formsOf(routes));
      }
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

/**
 * ENTITY_FORMS' names: a path's entity segment is looked up among them by content, never used as a
 * key itself (util/known-key.ts: each new key would cost a heap slot for as long as the module runs).
 */
export const ENTITY_KEYS: ReadonlyMap<string, string> = keyNames(ENTITY_FORMS);

/** Each entity's operation names (entity, one of ENTITY_KEYS, to names), looked up the same way. */
export const OPERATION_KEYS: { readonly [entity: string]: ReadonlyMap<string, string> } = deepFreeze(operationKeys());

function operationKeys(): { [entity: string]: ReadonlyMap<string, string> } {
  const out: { [entity: string]: ReadonlyMap<string, string> } = Object.create(null);
  for (const entity of ENTITY_KEYS.keys()) out[entity] = keyNames(ENTITY_FORMS[entity]!);
  return out;
}
