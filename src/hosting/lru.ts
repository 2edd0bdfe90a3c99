/**
 * A least-recently-used map bounded by the total size of its values (bytes, or any other weight). Content-
 * addressed entries never go stale, so the only policy needed is eviction: reading an entry makes it the
 * newest, and inserting past the budget drops the oldest ones. A value heavier than `maxEntryWeight` is
 * not kept at all (one huge file must not flush everything else).
 */
export class WeightedLru<K, V> {
  readonly #entries = new Map<K, { value: V; weight: number }>();
  #weight = 0;

  constructor(
    readonly maxWeight: number,
    readonly maxEntryWeight = Math.floor(maxWeight / 8),
  ) {}

  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    // Map iteration order is insertion order: re-inserting makes the entry the newest.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V, weight: number): void {
    const old = this.#entries.get(key);
    if (old) {
      this.#entries.delete(key);
      this.#weight -= old.weight;
    }
    if (weight > this.maxEntryWeight) return;
    this.#entries.set(key, { value, weight });
    this.#weight += weight;
    for (const [oldest, entry] of this.#entries) {
      if (this.#weight <= this.maxWeight) break;
      this.#entries.delete(oldest);
      this.#weight -= entry.weight;
    }
  }

  delete(key: K): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#weight -= entry.weight;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Total weight of the entries kept. */
  get weight(): number {
    return this.#weight;
  }
}
