// Finding a client's text among a table's names without using the text as a property key.
// XS turns every string used as a property key (`table[text]`, `text in table`, the member names
// JSON.parse reads) into a key that lives as long as the machine, one heap slot each: a module's XS
// never collects keys (xs/sources/xsCommon.h: mxKeysGarbageCollection 0). A lookup of each path a
// client sends would then take the heap a slot at a time until the module aborts. So a table keyed by
// names keeps its names also as a sorted array (frozen with the table: in flash on a module), and a
// client's text is compared with them; only the table's own string is then used as a key.

import { deepFreeze } from './freeze';

/** The own keys of `table`, sorted, frozen: the names findKey searches. */
export function sortedKeys(table: object): readonly string[] {
  return deepFreeze(Object.keys(table).sort());
}

/** The name of `keys` (sortedKeys) equal to `text`, as the array's own string; undefined when none is. */
export function findKey(keys: readonly string[], text: string): string | undefined {
  let lo = 0;
  let hi = keys.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const key = keys[mid];
    if (key === text) return key;
    if (key < text) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/** findKey, then findKey of the text in lower case (entity and operation names match in any case). */
export function findName(keys: readonly string[], text: string): string | undefined {
  const key = findKey(keys, text);
  if (key !== undefined) return key;
  const lower = text.toLowerCase();
  return lower === text ? undefined : findKey(keys, lower);
}
