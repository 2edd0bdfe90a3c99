/** Objects frozen by `freezeDeep`: nothing reachable from them can change, so what is derived from one may be kept. */
const deeplyFrozen = new WeakSet<object>();

/** Freezes `value` and everything reachable from it, and remembers it as deeply frozen (see `isFrozenDeep`). */
export function freezeDeep<V>(value: V): V {
  if (value && typeof value === "object" && !deeplyFrozen.has(value)) {
    deeplyFrozen.add(value);
    Object.freeze(value);
    for (const member of Object.values(value)) freezeDeep(member);
  }
  return value;
}

/** Whether `value` went through `freezeDeep` (a value merely `Object.freeze`d may hold mutable members). */
export function isFrozenDeep(value: unknown): value is object {
  return typeof value === "object" && value !== null && deeplyFrozen.has(value);
}

/** `derive(value)`, worked out once per deep-frozen `value` (kept in `cache`) and every time for any other value. */
export function derivedOnce<T, V>(cache: WeakMap<object, V>, value: T, derive: (value: T) => V): V {
  if (!isFrozenDeep(value)) return derive(value);
  let derived = cache.get(value);
  if (derived === undefined) {
    derived = derive(value);
    cache.set(value, derived);
  }
  return derived;
}
