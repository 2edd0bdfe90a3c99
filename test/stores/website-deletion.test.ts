// websites.delete on a website that has been used: the database removes every row it owned (tables found from
// the schema, not listed here), keeps the audit log and revoked invitations, and housekeeping then sweeps the
// blobs only it referenced, after their grace period.
import { readdirSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { getTableColumns, getTableName } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { tables } from "../../src/db/schema/sqlite.ts";
import { EVENT_KEYS, type NewAnalyticsEvent } from "../../src/db/stores/analytics.ts";
import { newId } from "../../src/kernel/ids.ts";
import { BLOB_GRACE_MS, sweepBlobs } from "../../src/services/housekeeping.ts";
import { dialects } from "../support/databases.ts";
import { useTestPlatform } from "../support/platform.ts";
import { rawQuery } from "./fixtures.ts";

/** Tables of the schema with a column named `column`. */
const tablesWith = (column: string) =>
  Object.values(tables)
    .filter((table) => Object.values(getTableColumns(table)).some((c) => c.name === column))
    .map((table) => getTableName(table));

/** Website-scoped tables whose rows outlive the website, and why. */
const KEPT: Record<string, string> = {
  audit_entries: "the audit log is immutable: it records what happened to the website",
  invitations: "open invitations to edit the website are revoked, not deleted",
};

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`deleting a website [${dialect.name}]`, () => {
    const t = useTestPlatform(dialect.name);
    const sites: Record<"doomed" | "kept", { id: string; slug: string }> = {} as never;
    const owned: Record<
      "doomed" | "kept",
      { deployments: string[]; collections: string[]; blobs: string[] }
    > = {} as never;

    const count = async (table: string, column: string, values: readonly string[]) => {
      if (values.length === 0) return 0;
      const marks = values.map((_, i) => (dialect.name === "pg" ? `$${i + 1}` : "?")).join(", ");
      const [row] = await rawQuery(
        dialect.name,
        t.databaseUrl,
        `SELECT count(*) AS n FROM ${table} WHERE ${column} IN (${marks})`,
        [...values],
      );
      return Number(row?.n);
    };
    const host = (slug: string) =>
      t.app.fetch(new Request(`http://${slug}.localhost/`, { headers: { host: `${slug}.localhost` } }));

    /** A published website with a server function, CMS content, a held lease, an editor, an invitation, a key and a preview link. */
    async function used(name: "doomed" | "kept") {
      const site = await t.createWebsite(`${name} ${dialect.name} ${newId().slice(-6)}`);
      const websiteId = site.id;
      const { leaseId } = await t.call("websiteSourceCode.lease.acquire", { websiteId });
      await t.call("websiteSourceCode.files.write", {
        websiteId,
        leaseId,
        path: "pages/only.tsx",
        content: `export default function Only() {\n  return <h1>Only on ${name}</h1>;\n}\n`,
      });
      await t.call("websiteSourceCode.files.write", {
        websiteId,
        leaseId,
        path: "functions/ping.ts",
        content: `export const http = () => new Response("pong from ${name}");\n`,
      });
      const collection = await t.call("cms.collections.create", {
        websiteId,
        name: "Posts",
        fields: [{ key: "title", name: "Title", type: "text", unique: true }],
      });
      await t.call("cms.items.create", {
        websiteId,
        collectionId: collection.id,
        values: { title: `Hello from ${name}` },
        publish: true,
      });
      await t.call("websiteSourceCode.head.publish", { websiteId });
      const editor = await t.createUser(`editor-${newId().toLowerCase()}@example.test`);
      await t.call("websiteEditors.grant", { websiteId, userId: editor.id, role: "content_editor" });
      await t.call("websiteEditors.invite", {
        websiteId,
        email: `invitee-${newId().toLowerCase()}@example.test`,
        role: "full_editor",
      });
      await t.createKey({ kind: "websites", websiteIds: [websiteId], role: "full_editor" });
      await t.call("websiteSourceCode.preview.createLink", { websiteId });
      // Raw analytics events have no foreign key to the website: websites.delete deletes them itself.
      const visit = `v-${newId().slice(-8)}`;
      await t.platform.db.transaction((s) =>
        s.analytics.insertEvents(
          [0, 1].map((n) => ({
            ...Object.fromEntries(EVENT_KEYS.map((key) => [key, ""])),
            websiteId,
            ts: Date.now() + n,
            name: "pageview",
            visitorId: visit,
            sessionId: visit,
            engagementMs: 0,
            props: null,
          })) as NewAnalyticsEvent[],
        ),
      );
      sites[name] = site;
      const deployments = await t.platform.db.read((s) => s.deployments.list(websiteId, { limit: 100 }));
      const outputs = await t.platform.db.read(async (s) =>
        (await Promise.all(deployments.map((d) => s.deployments.outputs(d.id)))).flat(),
      );
      const functions = await t.platform.db.read((s) =>
        Promise.all(deployments.map((d) => s.deployments.function(d.id, "ping"))),
      );
      owned[name] = {
        deployments: deployments.map((d) => d.id),
        collections: [collection.id],
        blobs: [...new Set([...outputs.map((o) => o.sha256), ...functions.map((f) => f!.bundleSha256)])],
      };
    }

    beforeAll(async () => {
      await used("doomed");
      await used("kept");
      expect((await host(sites.doomed.slug)).status).toBe(200);
      await t.call("websites.delete", { websiteId: sites.doomed.id });
    });

    it("leaves no row of the deleted website in any website-scoped table, and the other website whole", async () => {
      const scoped = tablesWith("website_id");
      expect(scoped).toEqual(expect.arrayContaining(Object.keys(KEPT)));
      expect(scoped.length).toBeGreaterThanOrEqual(10);
      for (const table of scoped.filter((name) => !(name in KEPT))) {
        expect(await count(table, "website_id", [sites.doomed.id]), table).toBe(0);
      }
      // Rows owned through the website's deployments and collections are gone too.
      for (const table of tablesWith("deployment_id")) {
        expect(await count(table, "deployment_id", owned.doomed.deployments), table).toBe(0);
        expect(await count(table, "deployment_id", owned.kept.deployments), table).toBeGreaterThan(0);
      }
      for (const table of tablesWith("collection_id")) {
        expect(await count(table, "collection_id", owned.doomed.collections), table).toBe(0);
        expect(await count(table, "collection_id", owned.kept.collections), table).toBeGreaterThan(0);
      }
      for (const table of [
        "deployments",
        "website_files",
        "cms_items",
        "website_editors",
        "api_key_websites",
        "analytics_events",
      ]) {
        expect(await count(table, "website_id", [sites.kept.id]), table).toBeGreaterThan(0);
      }
      expect((await host(sites.doomed.slug)).status).toBe(404);
      expect((await host(sites.kept.slug)).status).toBe(200);
    });

    it("keeps the audit log of the deleted website and its invitations, revoked", async () => {
      expect(await count("audit_entries", "website_id", [sites.doomed.id])).toBeGreaterThan(0);
      const invitations = await rawQuery(
        dialect.name,
        t.databaseUrl,
        `SELECT revoked_at FROM invitations WHERE website_id = ${dialect.name === "pg" ? "$1" : "?"}`,
        [sites.doomed.id],
      );
      expect(invitations).toHaveLength(1);
      expect(invitations[0]?.revoked_at).not.toBeNull();
    });

    it("sweeps the blobs only the deleted website referenced once they are older than the grace period", async () => {
      const only = owned.doomed.blobs.filter((sha) => !owned.kept.blobs.includes(sha));
      expect(only.length).toBeGreaterThan(0);
      const now = Date.now();
      // Within the grace period nothing goes, referenced or not.
      expect(await sweepBlobs(t.platform, now)).toBe(0);
      for (const sha of only) expect(await t.platform.blobs.has(sha), sha).toBe(true);

      const bytes = (text: string) => new TextEncoder().encode(`${text} ${newId()}`);
      const reused = await t.platform.blobs.put(bytes("an unreferenced blob a publish will put again"));
      // An hour and more later: every blob was last put before the grace period …
      const old = (now - BLOB_GRACE_MS - 60_000) / 1000;
      for (const folder of readdirSync(t.blobRoot)) {
        for (const name of readdirSync(join(t.blobRoot, folder)))
          utimesSync(join(t.blobRoot, folder, name), old, old);
      }
      // … except what a publish in flight has just put: a new blob, and the old unreferenced one again.
      const fresh = await t.platform.blobs.put(bytes("in flight"));
      await t.platform.blobs.put((await t.platform.blobs.get(reused))!);

      expect(await sweepBlobs(t.platform, now)).toBe(only.length);
      for (const sha of only) expect(await t.platform.blobs.has(sha), sha).toBe(false);
      for (const sha of [fresh, reused, ...owned.kept.blobs])
        expect(await t.platform.blobs.has(sha), sha).toBe(true);
      expect((await host(sites.kept.slug)).status).toBe(200);
      expect(await sweepBlobs(t.platform, now)).toBe(0);
    });
  });
}
