// `HotReplies`: a kept reply is returned for its host, target, method and Accept-Encoding only, while the
// generation has not moved and its time has not run out; past either limit everything is dropped.
import { describe, expect, it } from "vitest";
import { HotReplies, type HotReply } from "../../src/hosting/hot-replies.ts";

const hotReply = (size: number): HotReply => ({
  reply: { status: 200, headers: {}, body: new Uint8Array(size), flat: ["x-request-id", ""] },
  websiteId: "web_1",
  pathname: "/",
  search: "",
});

describe("HotReplies", () => {
  it("answers the same host, target, method and encoding while the generation holds and time remains", () => {
    let generation = 1;
    const hot = new HotReplies(() => generation, { entries: 10, bytes: 1000 });
    const later = Date.now() + 60_000;
    const kept = hotReply(10);
    hot.set("a.localhost", "/", "GET", "br", 1, later, kept);
    expect(hot.get("a.localhost", "/", "GET", "br")).toBe(kept);
    expect(hot.get("a.localhost", "/", "GET", undefined)).toBeUndefined();
    expect(hot.get("a.localhost", "/", "HEAD", "br")).toBeUndefined();
    expect(hot.get("b.localhost", "/", "GET", "br")).toBeUndefined();
    expect(hot.get("a.localhost", "/?x", "GET", "br")).toBeUndefined();
    generation = 2;
    expect(hot.get("a.localhost", "/", "GET", "br")).toBeUndefined();
    // A reply read before the move is kept with the old generation: never answered again.
    hot.set("a.localhost", "/", "GET", "br", 1, later, kept);
    expect(hot.get("a.localhost", "/", "GET", "br")).toBeUndefined();
    hot.set("a.localhost", "/", "GET", "br", 2, Date.now() - 1, kept);
    expect(hot.get("a.localhost", "/", "GET", "br")).toBeUndefined();
  });

  it("drops everything past its entry or byte limit", () => {
    const hot = new HotReplies(() => 0, { entries: 2, bytes: 100 });
    const later = Date.now() + 60_000;
    const put = (url: string, size: number) => hot.set("a", url, "GET", undefined, 0, later, hotReply(size));
    const has = (url: string) => hot.get("a", url, "GET", undefined) !== undefined;
    put("/1", 10);
    put("/2", 10);
    expect([has("/1"), has("/2")]).toEqual([true, true]);
    put("/3", 10);
    expect([has("/1"), has("/2"), has("/3")]).toEqual([false, false, true]);
    // Replacing a reply does not count it twice.
    put("/3", 10);
    put("/4", 80);
    expect([has("/3"), has("/4")]).toEqual([true, true]);
    put("/5", 20);
    expect([has("/3"), has("/4"), has("/5")]).toEqual([false, false, true]);
  });
});
