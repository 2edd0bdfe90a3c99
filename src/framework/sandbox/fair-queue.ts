/** How much of the pool one owner (an organization) may hold. */
export interface FairShare {
  /** Most items of one owner running at once. */
  maxRunning: number;
  /** Most items of one owner waiting at once; `offer` refuses more. */
  maxWaiting: number;
}

/**
 * The waiting line of a shared pool, fair across owners: each owner has its own queue (first in, first out),
 * owners with waiting work take turns (round robin: the next item comes from the owner served longest ago, an
 * owner not served while it had work counting as the longest), and an owner at its running cap is skipped until
 * one of its items finishes. One owner flooding the pool therefore delays every other owner by at most one turn.
 */
export class FairQueue<T> {
  /** Owners with waiting items, in arrival order (a Map keeps insertion order). */
  private readonly waiting = new Map<string, T[]>();
  private readonly running = new Map<string, number>();
  /** When each owner with work last started an item (a counter); forgotten once it has none. */
  private readonly served = new Map<string, number>();
  private turn = 0;

  constructor(readonly share: FairShare) {}

  /** Queues `item` for `owner`; false (nothing queued) when the owner already has `maxWaiting` items waiting. */
  offer(owner: string, item: T): boolean {
    const queue = this.waiting.get(owner);
    if (!queue) {
      this.waiting.set(owner, [item]);
      return true;
    }
    if (queue.length >= this.share.maxWaiting) return false;
    queue.push(item);
    return true;
  }

  /**
   * The next item to start, counted as running until `finished(owner)`: the oldest item of the owner below its
   * running cap that was served longest ago (ties: the one waiting longest). Undefined when no owner may start one.
   */
  take(): { owner: string; item: T } | undefined {
    let next: string | undefined;
    for (const owner of this.waiting.keys()) {
      if ((this.running.get(owner) ?? 0) >= this.share.maxRunning) continue;
      if (next === undefined || (this.served.get(owner) ?? -1) < (this.served.get(next) ?? -1)) next = owner;
    }
    if (next === undefined) return undefined;
    const queue = this.waiting.get(next)!;
    const item = queue.shift()!;
    if (queue.length === 0) this.waiting.delete(next);
    this.running.set(next, (this.running.get(next) ?? 0) + 1);
    this.served.set(next, this.turn++);
    return { owner: next, item };
  }

  /** One running item of `owner` has finished. */
  finished(owner: string): void {
    const running = (this.running.get(owner) ?? 0) - 1;
    if (running > 0) this.running.set(owner, running);
    else {
      this.running.delete(owner);
      if (!this.waiting.has(owner)) this.served.delete(owner);
    }
  }

  /** Whether an item could start now (some owner with waiting work is below its running cap). */
  get ready(): boolean {
    for (const owner of this.waiting.keys()) {
      if ((this.running.get(owner) ?? 0) < this.share.maxRunning) return true;
    }
    return false;
  }

  /** Items of `owner` waiting now. */
  waitingOf(owner: string): number {
    return this.waiting.get(owner)?.length ?? 0;
  }

  /** Items waiting now, of every owner. */
  get waitingTotal(): number {
    let total = 0;
    for (const queue of this.waiting.values()) total += queue.length;
    return total;
  }

  /** Removes and returns every waiting item. */
  drain(): T[] {
    const items = [...this.waiting.values()].flat();
    this.waiting.clear();
    for (const owner of this.served.keys()) if (!this.running.has(owner)) this.served.delete(owner);
    return items;
  }
}
