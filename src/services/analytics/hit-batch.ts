/** A page view or event as the request path hands it over: copied strings only, nothing parsed yet. */
export interface Hit {
  websiteId: string;
  ts: number;
  /** The site's host (a referrer from it is internal navigation). */
  host: string;
  name: string;
  pathname: string;
  search: string;
  ip: string;
  userAgent: string;
  referer: string | null;
  engagementMs?: number;
  props?: Record<string, string> | null;
}

/** Fields a hit takes in a batch. */
export const HIT_FIELDS = 11;

/** A batch as it crosses to the writer thread: `count` hits' fields as numbers, each text (or props) once in `table`. */
export interface WireBatch {
  count: number;
  /** Per hit `HIT_FIELDS` cells: `ts` and `engagementMs` themselves, the other fields their index in `table` (-1: null). */
  cells: Float64Array;
  table: unknown[];
}

/**
 * Up to `capacity` hits, each stored as numbers at once: a text seen before in the batch (the same agent, address,
 * host and path, hit after hit) is kept once, so the request's own copy is garbage at once and the batch crosses to
 * the writer as one copied buffer plus its distinct texts (no JSON of every field of every hit); once posted, the
 * batch is cleared and filled again.
 */
export class HitBatch implements WireBatch {
  count = 0;
  readonly cells: Float64Array;
  readonly table: unknown[] = [];
  readonly #index = new Map<unknown, number>();
  /** Per field, the previous hit's value and its index: a repeat (same site, agent, address) skips the map. */
  readonly #last: unknown[] = new Array(HIT_FIELDS).fill(null);
  readonly #lastAt: number[] = new Array(HIT_FIELDS).fill(-1);

  constructor(readonly capacity: number) {
    this.cells = new Float64Array(capacity * HIT_FIELDS);
  }

  #of(field: number, value: unknown): number {
    if (value === null || value === undefined) return -1;
    if (value === this.#last[field]) return this.#lastAt[field]!;
    let at = this.#index.get(value);
    if (at === undefined) {
      at = this.table.length;
      this.#index.set(value, at);
      this.table.push(value);
    }
    this.#last[field] = value;
    this.#lastAt[field] = at;
    return at;
  }

  /** Empties the batch for reuse (its texts are let go; the cells are overwritten as hits arrive). */
  clear(): void {
    this.count = 0;
    this.table.length = 0;
    this.#index.clear();
    this.#last.fill(null);
    this.#lastAt.fill(-1);
  }

  /** Appends a hit (the caller keeps `count < capacity`). */
  add(hit: Hit): void {
    const cells = this.cells;
    const o = this.count++ * HIT_FIELDS;
    cells[o] = this.#of(0, hit.websiteId);
    cells[o + 1] = hit.ts;
    cells[o + 2] = this.#of(2, hit.host);
    cells[o + 3] = this.#of(3, hit.name);
    cells[o + 4] = this.#of(4, hit.pathname);
    cells[o + 5] = this.#of(5, hit.search);
    cells[o + 6] = this.#of(6, hit.ip);
    cells[o + 7] = this.#of(7, hit.userAgent);
    cells[o + 8] = this.#of(8, hit.referer);
    cells[o + 9] = hit.engagementMs ?? 0;
    cells[o + 10] = this.#of(10, hit.props);
  }
}

/** A batch's hits as the writer reads them: their fields one after another in a flat array (no object per hit). */
export function flatHits({ count, cells, table }: WireBatch): unknown[] {
  const flat = new Array<unknown>(count * HIT_FIELDS);
  const text = (at: number) => (at < 0 ? null : table[at]);
  for (let o = 0; o < flat.length; o += HIT_FIELDS) {
    flat[o] = text(cells[o]!);
    flat[o + 1] = cells[o + 1];
    for (let f = 2; f < 9; f++) flat[o + f] = text(cells[o + f]!);
    flat[o + 9] = cells[o + 9];
    flat[o + 10] = text(cells[o + 10]!);
  }
  return flat;
}
