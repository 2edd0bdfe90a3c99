import { describe, expect, it } from "vitest";
import { dialects } from "../support/databases.ts";
import { useTestPlatform } from "../support/platform.ts";

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`a form posted on a draft preview [${dialect.name}]`, () => {
    const t = useTestPlatform(dialect.name);

    const post = (host: string, headers: Record<string, string>, body: string) =>
      t.app.fetch(
        new Request(`http://${host}/_service/forms/contact`, {
          method: "POST",
          headers: { host, ...headers },
          body,
        }),
      );

    it("is answered with what to do instead, as a page or as the error body, and stores nothing", async () => {
      const website = await t.createWebsite("Preview Forms");
      const host = `preview--${website.slug}.localhost`;
      const auth = { authorization: `Bearer ${t.adminKey.plaintextKey}` };

      const page = await post(
        host,
        { ...auth, "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
        "name=Ann&email=ann%40example.test&message=hi",
      );
      expect(page.status).toBe(409);
      expect(page.headers.get("content-type")).toContain("text/html");
      expect(page.headers.get("x-robots-tag")).toBe("noindex");
      const text = await page.text();
      expect(text).toContain(
        "This is the draft preview: form submissions are only received on the live site",
      );

      const json = await post(
        host,
        { ...auth, "content-type": "application/json", accept: "application/json" },
        JSON.stringify({ name: "Ann" }),
      );
      expect(json.status).toBe(409);
      const body = (await json.json()) as { kind: string; message: string; suggestion: string };
      expect(body.kind).toBe("conflict");
      expect(body.suggestion).toContain("websiteSourceCode.head.publish");
      expect(body.suggestion).toContain("forms.submissions.list");

      const stored = await t.call("forms.submissions.list", { websiteId: website.id, limit: 10 });
      expect(stored.items).toEqual([]);
      // Other methods are still not allowed there.
      const put = await t.app.fetch(
        new Request(`http://${host}/_service/forms/contact`, {
          method: "PUT",
          headers: { host, ...auth },
          body: "x",
        }),
      );
      expect(put.status).toBe(405);
    });
  });
}
