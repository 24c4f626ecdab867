// Deep freeze for module-level data. A preloaded module's objects live in flash only when frozen
// (xsl warns "not frozen" otherwise, and the object is copied into RAM at boot). XS's own
// Object.freeze(o, true) is deep; this walk does the same on any engine (Node runs the same code).

/** Freezes `value` and everything reachable from its own properties; returns it. */
export function deepFreeze<T>(value: T): T {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null || Object.isFrozen(value)) {
    return value;
  }
  // A typed array with elements cannot be frozen (TypeError): module data uses strings or arrays.
  if (ArrayBuffer.isView(value)) throw new TypeError('deepFreeze: typed arrays cannot be frozen');
  Object.freeze(value);
  const names = Object.getOwnPropertyNames(value);
  for (let i = 0; i < names.length; i++) {
    const d = Object.getOwnPropertyDescriptor(value, names[i]);
    if (d && 'value' in d) deepFreeze(d.value);
  }
  return value;
}
