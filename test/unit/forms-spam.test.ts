import { describe, expect, it } from "vitest";
import { checkFormToken, contentScore, mintFormToken, spamReasons } from "../../src/services/forms/spam.ts";

const secret = Buffer.alloc(32, 7);

describe("form spam checks", () => {
  it("start-time tokens: signed per website, too fast under three seconds, stale after a day", () => {
    const now = 1_800_000_000_000;
    const token = mintFormToken(secret, "site_a", now);
    expect(checkFormToken(secret, "site_a", token, now + 1_000)).toBe("too_fast");
    expect(checkFormToken(secret, "site_a", token, now + 4_000)).toBe("ok");
    expect(checkFormToken(secret, "site_b", token, now + 4_000)).toBe("forged");
    expect(checkFormToken(Buffer.alloc(32, 8), "site_a", token, now + 4_000)).toBe("forged");
    expect(checkFormToken(secret, "site_a", `${token}x`, now + 4_000)).toBe("forged");
    expect(checkFormToken(secret, "site_a", "", now)).toBe("missing");
    expect(checkFormToken(secret, "site_a", token, now + 25 * 3600_000)).toBe("missing");
  });

  it("content score: links, markup, spam words, capitals", () => {
    expect(contentScore({ message: "Hello, I liked your site https://me.test" }).score).toBe(0);
    expect(contentScore({ message: "see https://a.test https://b.test https://c.test" }).score).toBe(2);
    expect(contentScore({ m: "[url=https://x.test]x[/url]" }).reasons).toContain("link markup");
    expect(contentScore({ m: "Best CASINO and viagra" }).score).toBe(4);
    expect(contentScore({ m: "BUY NOW THIS IS AMAZING OFFER" }).reasons).toEqual(["mostly capitals"]);
  });

  it("sensitivity sets the threshold; off never flags", () => {
    const values = { message: "visit https://a.test and https://b.test today" };
    const input = { honeypot: "", token: "missing" as const, values };
    expect(spamReasons(input, "low")).toEqual([]);
    expect(spamReasons(input, "high")).toHaveLength(1);
    expect(spamReasons({ ...input, honeypot: "x" }, "low")[0]).toContain("honeypot");
    expect(spamReasons({ ...input, honeypot: "x", token: "forged" }, "off")).toEqual([]);
  });
});
