import { describe, expect, it } from "vitest";
import { FairQueue } from "../../src/framework/sandbox/fair-queue.ts";

/** Starts items while `slots` are free; returns what started, as "owner:item". */
function start(queue: FairQueue<string>, slots: number): string[] {
  const started: string[] = [];
  while (started.length < slots) {
    const next = queue.take();
    if (!next) break;
    started.push(`${next.owner}:${next.item}`);
  }
  return started;
}

describe("the build queue: fair across organizations", () => {
  it("takes turns between organizations instead of first come, first served", () => {
    const queue = new FairQueue<string>({ maxRunning: 10, maxWaiting: 10 });
    for (const item of ["a1", "a2", "a3", "a4"]) queue.offer("A", item);
    queue.offer("B", "b1");
    queue.offer("C", "c1");
    queue.offer("B", "b2");
    expect(start(queue, 10)).toEqual(["A:a1", "B:b1", "C:c1", "A:a2", "B:b2", "A:a3", "A:a4"]);
  });

  it("runs at most maxRunning items of one organization; its next starts when one finishes", () => {
    const queue = new FairQueue<string>({ maxRunning: 1, maxWaiting: 10 });
    for (const item of ["a1", "a2", "a3"]) queue.offer("A", item);
    expect(start(queue, 2)).toEqual(["A:a1"]);
    expect(queue.ready).toBe(false);
    // Another organization arriving while A holds its share starts at once.
    queue.offer("B", "b1");
    expect(start(queue, 2)).toEqual(["B:b1"]);
    queue.finished("A");
    expect(start(queue, 2)).toEqual(["A:a2"]);
    queue.finished("B");
    queue.finished("A");
    expect(start(queue, 2)).toEqual(["A:a3"]);
    queue.finished("A");
    expect(queue.take()).toBeUndefined();
  });

  it("an organization that just started goes to the back: a newcomer is next", () => {
    const queue = new FairQueue<string>({ maxRunning: 2, maxWaiting: 10 });
    for (const item of ["a1", "a2", "a3"]) queue.offer("A", item);
    expect(start(queue, 1)).toEqual(["A:a1"]);
    queue.offer("B", "b1");
    expect(start(queue, 1)).toEqual(["B:b1"]);
    expect(start(queue, 1)).toEqual(["A:a2"]);
  });

  it("refuses an organization's item past maxWaiting; others still queue", () => {
    const queue = new FairQueue<string>({ maxRunning: 1, maxWaiting: 2 });
    expect(queue.offer("A", "a1")).toBe(true);
    expect(start(queue, 1)).toEqual(["A:a1"]);
    expect(queue.offer("A", "a2")).toBe(true);
    expect(queue.offer("A", "a3")).toBe(true);
    expect(queue.offer("A", "a4")).toBe(false);
    expect(queue.waitingOf("A")).toBe(2);
    expect(queue.offer("B", "b1")).toBe(true);
    expect(queue.drain().sort()).toEqual(["a2", "a3", "b1"]);
    expect(queue.ready).toBe(false);
  });
});
