import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSession } from "../../src/accounts/session.ts";
import { SESSION_COOKIE } from "../../src/auth/authenticate.ts";
import { closeSandboxPool } from "../../src/framework/index.ts";
import { AppClient, flashText } from "../support/app-client.ts";
import { dialects } from "../support/databases.ts";
import { type TestPlatform, useTestPlatform } from "../support/platform.ts";

const APP = "http://localhost:8787";

afterAll(closeSandboxPool);

/** A browser stand-in signed in as `userId` (a session started for them), fetching the app in-process. */
async function signedIn(t: TestPlatform, userId: string): Promise<AppClient> {
  const browser = new AppClient(
    async (path, init) => t.app.fetch(new Request(new URL(path, APP), init)),
    APP,
  );
  const cookie = await startSession(t.platform, userId, { ip: "127.0.0.1", userAgent: "vitest" });
  browser.cookies.set(SESSION_COOKIE, cookie.split(";")[0]!.slice(SESSION_COOKIE.length + 1));
  return browser;
}

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`the dashboard's website page [${dialect.name}]`, () => {
    const t = useTestPlatform(dialect.name);
    let owner: AppClient;
    let org: string;
    let site: { id: string; slug: string };
    let base: string;
    const liveId = () => t.platform.db.read((stores) => stores.deployments.publishedId(site.id));
    const writeFile = async (path: string, content: string) => {
      const { leaseId } = await t.call("websiteSourceCode.lease.acquire", { websiteId: site.id });
      await t.call("websiteSourceCode.files.write", { websiteId: site.id, leaseId, path, content });
    };

    beforeAll(async () => {
      org = t.local.organization.id;
      site = await t.createWebsite("Harbor Cafe");
      base = `/orgs/${org}/websites/${site.id}`;
      owner = await signedIn(t, t.local.owner.id);
    });

    it("shows an unpublished website with no live link, publishes it, then links the live site on the page and in the list", async () => {
      const before = await owner.get(base);
      expect(before.status).toBe(200);
      expect(before.html).toContain("Harbor Cafe");
      expect(before.html).toContain("Not published");
      expect(before.html).not.toContain(`http://${site.slug}.localhost:8787/`);
      for (const section of ["/deployments", "/cms", "/source", "/editors"]) {
        expect(before.html).toContain(`href="${base}${section}"`);
      }
      expect((await owner.get(`/orgs/${org}/websites`)).html).not.toContain(`http://${site.slug}.localhost`);

      const published = await owner.post(`${base}/publish`, {});
      expect(published.status).toBe(303);
      expect(published.location).toBe(`${base}?done=website-published`);
      const live = (await liveId())!;
      expect(live).toBeTruthy();
      const after = await owner.get(published.location!);
      expect(flashText(after)).toContain("Draft published.");
      expect(after.html).toContain(`href="http://${site.slug}.localhost:8787/"`);
      expect(after.html).toContain(live.slice(0, 12));
      expect(after.html).toContain("Same as live");
      expect((await owner.get(`/orgs/${org}/websites`)).html).toContain(
        `href="http://${site.slug}.localhost:8787/"`,
      );
      const [entry] = await t.platform.db.read((stores) =>
        stores.audit.list({ organizationId: org, limit: 1 }),
      );
      expect(entry).toMatchObject({
        operationId: "websiteSourceCode.head.publish",
        transport: "dashboard",
        actorId: t.local.owner.id,
      });
    });

    it("shows how the draft differs from the live version, and the source files read-only with escaped content", async () => {
      await writeFile("pages/notes.md", '# Notes\n\n<script>alert("x")</script>\n');
      const overview = await owner.get(base);
      expect(overview.html).toContain("1 file changed");
      expect(overview.html).toContain("<code>pages/notes.md</code>");

      const source = await owner.get(`${base}/source`);
      expect(source.status).toBe(200);
      const row = source.html.slice(source.html.indexOf("pages/notes.md"));
      expect(row).toMatch(/^pages\/notes\.md<\/a> <span class="badge accent">added<\/span>/);
      expect(source.html).toContain("pages/index.tsx");
      expect(source.html).not.toMatch(/<form[^>]*action="[^"]*\/source/);

      const file = await owner.get(`${base}/source/file?path=${encodeURIComponent("pages/notes.md")}`);
      expect(file.status).toBe(200);
      expect(file.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
      expect(file.html).not.toContain('<script>alert("x")</script>');
      const missing = await owner.get(`${base}/source/file?path=${encodeURIComponent("pages/none.md")}`);
      expect(missing.status).toBe(404);
    });

    it("lists deployments and rolls back only after a confirm step, as the signed-in user", async () => {
      const first = (await liveId())!;
      expect((await owner.post(`${base}/publish`, {})).status).toBe(303);
      const second = (await liveId())!;
      expect(second).not.toBe(first);

      const list = await owner.get(`${base}/deployments`);
      expect(list.status).toBe(200);
      const rollback = `${base}/deployments/${first}/rollback`;
      expect(list.html).toContain(`href="${rollback}"`);
      expect(list.html).not.toContain(`href="${base}/deployments/${second}/rollback"`);
      expect(list.html).toContain('<span class="badge success">Live</span>');

      const confirm = await owner.get(rollback);
      expect(confirm.status).toBe(200);
      expect(confirm.html).toContain("Roll back the live site to this deployment?");
      expect(await liveId()).toBe(second);

      const forged = await owner.post(rollback, {}, { csrf: "forged" });
      expect(forged.status).toBe(403);
      expect(await liveId()).toBe(second);

      const done = await owner.post(rollback, {});
      expect(done.status).toBe(303);
      expect(done.location).toBe(`${base}/deployments?done=rolled-back`);
      expect(await liveId()).toBe(first);
      expect(flashText(await owner.get(done.location!))).toContain("Rolled back.");

      const unknown = await owner.post(`${base}/deployments/nope/rollback`, {});
      expect(unknown.status).toBe(404);
      expect(await liveId()).toBe(first);
    });

    it("opens the draft preview for the signed-in user through a minted link; the preview host's 401 page links to sign in", async () => {
      await writeFile("pages/notes.md", "# Fresh draft notes\n");
      const minted = await owner.post(`${base}/preview`, {});
      expect(minted.status).toBe(303);
      const link = new URL(minted.location!);
      expect(link.host).toBe(`preview--${site.slug}.localhost:8787`);
      expect(link.searchParams.get("sitewright_preview")).toBeTruthy();
      const swapped = await t.app.fetch(new Request(link, { redirect: "manual" }));
      expect(swapped.status).toBe(303);
      const cookie = swapped.headers.get("set-cookie")!.split(";")[0]!;
      const draft = await t.app.fetch(new Request(new URL("/notes/", link), { headers: { cookie } }));
      expect(draft.status).toBe(200);
      expect(await draft.text()).toContain("Fresh draft notes");
      const [entry] = await t.platform.db.read((stores) =>
        stores.audit.list({ organizationId: org, limit: 1 }),
      );
      expect(entry).toMatchObject({
        operationId: "websiteSourceCode.preview.createLink",
        transport: "dashboard",
      });

      // Signed in to the dashboard but not to the preview host: the 401 page offers the way back.
      const anonymous = await t.app.fetch(new Request(new URL("/", link.origin)));
      expect(anonymous.status).toBe(401);
      const page = await anonymous.text();
      expect(page).toContain(`href="${APP}/preview/${site.slug}"`);
      expect(page).toContain("Sign in to preview");

      const signedOut = await t.app.fetch(new Request(`${APP}/preview/${site.slug}`));
      expect(signedOut.status).toBe(303);
      expect(signedOut.headers.get("location")).toBe(
        `/signin?next=${encodeURIComponent(`/preview/${site.slug}`)}`,
      );
      const open = await owner.get(`/preview/${site.slug}`);
      expect(open.status).toBe(200);
      expect(open.html).toContain(`action="${base}/preview"`);
      expect((await owner.get("/preview/no-such-website")).status).toBe(404);
    });

    it("edits simple CMS values with a form, keeps what was typed on an error, and publishes and unpublishes the item", async () => {
      const blog = await t.call("cms.collections.create", {
        websiteId: site.id,
        name: "Blog",
        slug: "blog",
        fields: [
          { key: "title", name: "Title", type: "text", required: true },
          { key: "body", name: "Body", type: "richText" },
          { key: "date", name: "Date", type: "date" },
          { key: "category", name: "Category", type: "option", validValues: ["news", "howto"] },
          { key: "views", name: "Views", type: "number", integer: true, validations: { min: 0 } },
          { key: "featured", name: "Featured", type: "boolean" },
          { key: "tags", name: "Tags", type: "multiOption", validValues: ["a", "b"] },
        ],
      });
      const item = await t.call("cms.items.create", {
        websiteId: site.id,
        collectionId: blog.id,
        values: { title: "Opening day", tags: ["a"] },
      });
      const collectionPage = `${base}/cms/${blog.id}`;
      const itemPage = `${collectionPage}/items/${item.id}`;
      expect((await owner.get(`${base}/cms`)).html).toContain(`href="${collectionPage}"`);
      const list = await owner.get(collectionPage);
      expect(list.html).toContain("Opening day");
      expect(list.html).toContain(`action="${itemPage}/publish"`);

      const form = await owner.get(itemPage);
      for (const name of ["v.title", "v.body", "v.date", "v.category", "v.views", "v.featured"]) {
        expect(form.html).toContain(`name="${name}"`);
      }
      expect(form.html).not.toContain('name="v.tags"');
      expect(form.html).toContain("[&quot;a&quot;]");

      const fields = ["title", "body", "date", "category", "views", "featured"];
      const values = {
        version: String(item.version),
        "v.title": "Opening day <3",
        "v.body": "Coffee **at last**.",
        "v.date": "2026-05-01",
        "v.category": "news",
        "v.featured": "true",
      };
      const post = (extra: Record<string, string>) => {
        const body = new URLSearchParams({ ...values, ...extra, csrf: owner.lastCsrf! });
        for (const key of fields) body.append("fields", key);
        return owner.request(itemPage, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: APP },
          body: body.toString(),
        });
      };

      const invalid = await post({ "v.views": "-3" });
      expect(invalid.status).toBe(400);
      expect(flashText(invalid)).toContain("values.views");
      expect(invalid.html).toContain('value="-3"');
      expect(invalid.html).toContain('value="Opening day &lt;3"');
      expect((await t.call("cms.items.get", { websiteId: site.id, itemId: item.id })).version).toBe(
        item.version,
      );

      const saved = await post({ "v.views": "12" });
      expect(saved.status).toBe(303);
      expect(saved.location).toBe(`${itemPage}?done=item-saved`);
      const got = await t.call("cms.items.get", { websiteId: site.id, itemId: item.id });
      expect(got.values).toEqual({
        title: "Opening day <3",
        body: "Coffee **at last**.",
        date: "2026-05-01",
        category: "news",
        views: 12,
        featured: true,
        tags: ["a"],
      });

      // Saved from a page read before that save: the pipeline's conflict, shown with what was typed.
      const stale = await post({ "v.views": "13" });
      expect(stale.status).toBe(409);
      expect(stale.html).toContain('class="flash error"');
      expect(stale.html).toContain('value="13"');

      const publishedItem = await owner.post(`${itemPage}/publish`, { back: "list" });
      expect(publishedItem.location).toBe(`${collectionPage}?done=item-published`);
      expect((await t.call("cms.items.get", { websiteId: site.id, itemId: item.id })).status).toBe(
        "published",
      );
      const unpublished = await owner.post(`${itemPage}/unpublish`, { back: "item" });
      expect(unpublished.location).toBe(`${itemPage}?done=item-unpublished`);
      expect((await t.call("cms.items.get", { websiteId: site.id, itemId: item.id })).status).toBe("draft");
    });

    it("shows a content editor the overview, preview and CMS only; the pipeline refuses source, deployments and publishing", async () => {
      const casey = await t.createUser(`casey-${dialect.name}@example.test`, {
        organizationId: org,
        role: "content_editor",
      });
      const editor = await signedIn(t, casey.id);
      const overview = await editor.get(base);
      expect(overview.status).toBe(200);
      expect(overview.html).toContain(`href="${base}/cms"`);
      expect(overview.html).toContain(`action="${base}/preview"`);
      for (const hidden of ["/source", "/deployments", "/editors", "/publish"]) {
        expect(overview.html).not.toContain(`${base}${hidden}"`);
      }
      expect(overview.html).toContain(`href="http://${site.slug}.localhost:8787/"`);
      for (const section of ["/source", "/deployments", `/deployments/${await liveId()}/rollback`]) {
        expect((await editor.get(`${base}${section}`)).status, section).toBe(403);
      }

      const live = await liveId();
      const deployments = await t.call("websiteSourceCode.deployments.list", { websiteId: site.id });
      const other = deployments.items.find((d: { published: boolean }) => !d.published);
      const rollback = await editor.post(`${base}/deployments/${other!.id}/rollback`, {});
      expect(rollback.status).toBe(403);
      expect((await editor.post(`${base}/publish`, {})).status).toBe(403);
      expect(await liveId()).toBe(live);

      // The CMS is theirs: items are edited and published (publishing the website is not).
      const news = await t.call("cms.collections.create", {
        websiteId: site.id,
        name: "News",
        fields: [{ key: "title", name: "Title", type: "text", required: true }],
      });
      const item = await t.call("cms.items.create", {
        websiteId: site.id,
        collectionId: news.id,
        values: { title: "Menu" },
      });
      const itemPage = `${base}/cms/${news.id}/items/${item.id}`;
      expect((await editor.get(itemPage)).html).toContain('name="v.title"');
      const saved = await editor.post(itemPage, {
        version: String(item.version),
        fields: "title",
        "v.title": "Winter menu",
        slug: item.slug,
      });
      expect(saved.location).toBe(`${itemPage}?done=item-saved`);
      expect((await editor.post(`${itemPage}/publish`, { back: "item" })).status).toBe(303);
      const after = await t.call("cms.items.get", { websiteId: site.id, itemId: item.id });
      expect(after).toMatchObject({ status: "published", values: { title: "Winter menu" } });
      expect((await editor.post(`${base}/preview`, {})).status).toBe(303);
    });

    it("shows a website-scoped full editor the source and deployments but not the editors section", async () => {
      const fran = await t.createUser(`fran-${dialect.name}@example.test`);
      await t.call("websiteEditors.grant", { websiteId: site.id, email: fran.email, role: "full_editor" });
      const editor = await signedIn(t, fran.id);
      const overview = await editor.get(base);
      expect(overview.status).toBe(200);
      for (const shown of ["/deployments", "/cms", "/source", "/publish"]) {
        expect(overview.html).toContain(`${base}${shown}"`);
      }
      expect(overview.html).not.toContain(`${base}/editors"`);
      expect((await editor.get(`${base}/source`)).status).toBe(200);
      expect((await editor.get(`${base}/editors`)).status).toBe(403);
    });

    it("answers 404 to a user of another organization, whichever organization the address names", async () => {
      const other = await t.createOrganization("Elsewhere");
      const stranger = await signedIn(t, other.owner.id);
      const paths = [base, `${base}/cms`, `/orgs/${other.organization.id}/websites/${site.id}`];
      for (const path of paths) expect((await stranger.get(path)).status, path).toBe(404);
      await stranger.get(`/orgs/${other.organization.id}/websites`);
      const preview = await stranger.post(`/orgs/${other.organization.id}/websites/${site.id}/preview`, {});
      expect(preview.status).toBe(404);
      expect(preview.location).toBeNull();
      const open = await stranger.get(`/preview/${site.slug}`);
      expect(open.status).toBe(404);
      expect(open.html).not.toContain(site.id);
    });
  });
}
