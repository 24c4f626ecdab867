// Finding a client's text among a table's names without using the text as a property key.
// XS turns every string used as a property key (`table[text]`, `text in table`, the member names
// JSON.parse reads) into a key that lives as long as the machine, one heap slot each: a module's XS
// never collects keys (xs/sources/xsCommon.h: mxKeysGarbageCollection 0). A lookup of each path a
// client sends would then take the heap a slot at a time until the module aborts. So a table keyed by
// names keeps its names also in a Map from each name to itself (frozen with the table: preloaded, a
// Map lives in flash and is read-only), where a client's text is looked up by its content; only the
// table's own string is then used as a key. One Map.get is one native call: under XS on the chip a
// search of a sorted array in script cost eight times as many cycles.

import { deepFreeze } from './freeze';

/** The own keys of `table`, each mapped to itself, frozen: the names findKey looks up. */
export function keyNames(table: object): ReadonlyMap<string, string> {
  const names = new Map<string, string>();
  for (const key of Object.keys(table)) names.set(key, key);
  return deepFreeze(names);
}

/** The name of `names` (keyNames) equal to `text`, as the table's own string; undefined when none is. */
export function findKey(names: ReadonlyMap<string, string>, text: string): string | undefined {
  return names.get(text);
}

/** findKey, then findKey of the text in lower case (entity and operation names match in any case). */
export function findName(names: ReadonlyMap<string, string>, text: string): string | undefined {
  const key = names.get(text);
  if (key !== undefined) return key;
  const lower = text.toLowerCase();
  return lower === text ? undefined : names.get(lower);
}
