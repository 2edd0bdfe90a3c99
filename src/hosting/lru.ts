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

/**
 * A bounded LRU of database lookups that may go stale: an entry is used while `generation` (the writes of the
 * tables it read: `writeGeneration`) has not moved since it was read, and for at most `ttlMs` (writes of other
 * processes that the generation cannot see are picked up after that).
 */
export class LookupCache<K, V> {
  readonly #entries: WeightedLru<K, { value: V; generation: number; expires: number }>;

  constructor(
    maxEntries: number,
    readonly ttlMs: number,
    readonly generation: () => number,
  ) {
    this.#entries = new WeightedLru(maxEntries, 1);
  }

  /** The value read for `key`, when still fresh. */
  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.generation === this.generation() && entry.expires > Date.now()) return entry.value;
    this.#entries.delete(key);
    return undefined;
  }

  /**
   * Reads `key` through the cache: `read` runs on a miss, and its value is kept when `keep` accepts it and no
   * write started or ended while it ran.
   */
  async through(key: K, read: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const generation = this.generation();
    const expires = Date.now() + this.ttlMs;
    const value = await read();
    if (keep(value) && generation === this.generation()) {
      this.#entries.set(key, { value, generation, expires }, 1);
    }
    return value;
  }
}
