import { expect, it } from "vitest";
import { newId } from "../../src/kernel/ids.ts";
import { describeMatrix } from "../support/matrix.ts";
import { connectMcp, resultJson } from "../support/mcp.ts";

/** A content workflow over MCP as a new user would run it: a Blog, three posts, two published, a publish, the live site. */
describeMatrix(
  "cms on the live site",
  (ctx) => {
    const page = async (host: string, path: string, key?: string) => {
      const response = await ctx.t.app.fetch(
        new Request(`http://${host}${path}`, {
          headers: { host, ...(key ? { authorization: `Bearer ${key}` } : {}) },
        }),
      );
      return { status: response.status, text: await response.text() };
    };

    it("publishes exactly the published posts, with detail pages, on the next head/publish", async () => {
      const client = await connectMcp(ctx, ctx.t.adminKey.plaintextKey);
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = await client.callTool({ name, arguments: args });
        const body = resultJson(result);
        expect(result.isError, JSON.stringify(body)).toBeFalsy();
        return body;
      };
      const site = await call("websites_create", { name: `Blog ${newId().slice(-6)}` });
      const blog = await call("cms_collections_create", {
        websiteId: site.id,
        name: "Blog",
        slug: "blog",
        fields: [
          { key: "title", name: "Title", type: "text", required: true },
          { key: "body", name: "Body", type: "richText" },
          { key: "cover", name: "Cover image", type: "image" },
          { key: "date", name: "Published date", type: "date" },
        ],
      });
      const posts = [];
      for (const [i, title] of ["First light", "Second wind", "Third time"].entries()) {
        posts.push(
          await call("cms_items_create", {
            websiteId: site.id,
            collectionId: blog.id,
            values: {
              title,
              body: `Post **${i + 1}**`,
              date: `2026-03-0${i + 1}`,
              cover: "https://example.test/c.png",
            },
          }),
        );
      }
      const invalid = await client.callTool({
        name: "cms_items_create",
        arguments: { websiteId: site.id, collectionId: blog.id, values: { title: "Bad", date: "March" } },
      });
      expect(invalid.isError).toBe(true);
      expect(resultJson(invalid).message).toMatch(/^values\.date:/);

      await call("cms_items_set_published", {
        websiteId: site.id,
        itemIds: [posts[0].id, posts[2].id],
        published: true,
      });
      await call("website_source_code_head_publish", { websiteId: site.id });

      const host = `${site.slug}.localhost`;
      const index = await page(host, "/blog/");
      expect(index.status).toBe(200);
      expect(index.text).toContain("First light");
      expect(index.text).toContain("Third time");
      expect(index.text).not.toContain("Second wind");
      expect((await page(host, `/blog/${posts[0].slug}/`)).status).toBe(200);
      const detail = (await page(host, `/blog/${posts[0].slug}/`)).text;
      expect(detail).toContain("First light");
      expect(detail).toContain("<p>Post <strong>1</strong></p>");
      expect((await page(host, `/blog/${posts[2].slug}/`)).status).toBe(200);
      expect((await page(host, `/blog/${posts[1].slug}/`)).status).toBe(404);

      // An edit reaches the live site only with the next publish; the preview shows drafts at once.
      await call("cms_items_update", {
        websiteId: site.id,
        itemId: posts[0].id,
        values: { title: "First light, edited" },
      });
      await call("cms_items_set_published", { websiteId: site.id, itemIds: [posts[0].id], published: true });
      expect((await page(host, "/blog/")).text).not.toContain("First light, edited");
      const preview = await page(`preview--${site.slug}.localhost`, "/blog/", ctx.t.adminKey.plaintextKey);
      expect(preview.status).toBe(200);
      expect(preview.text).toContain("First light, edited");
      expect(preview.text).toContain("Second wind");
      const republished = await call("website_source_code_head_publish", { websiteId: site.id });
      expect(republished).toBeTruthy();
      expect((await page(host, "/blog/")).text).toContain("First light, edited");
      await client.close();
    });
  },
  { server: false },
);
