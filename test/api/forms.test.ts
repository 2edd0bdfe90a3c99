import { afterAll, beforeAll, expect, it } from "vitest";
import { buildSite, closeSandboxPool, starterFiles } from "../../src/framework/index.ts";
import type { BuildResult } from "../../src/framework/types.ts";
import { newId } from "../../src/kernel/ids.ts";
import { publishBuild, rawRequest } from "../support/hosting.ts";
import { describeMatrix } from "../support/matrix.ts";

let starter: BuildResult;
beforeAll(async () => {
  starter = await buildSite({
    files: starterFiles("Forms ops"),
    organizationId: "org_test",
    mode: "publish",
  });
}, 120_000);
afterAll(closeSandboxPool);

describeMatrix("forms operations", (ctx) => {
  let count = 0;
  /** A website with the starter published and `n` contact submissions, one second apart (oldest first). */
  const withSubmissions = async (
    n: number,
    values = (i: number) => ({ name: `P${i}`, email: `p${i}@x.test`, message: `m${i}` }),
  ) => {
    const website = await ctx.t.createWebsite(`Forms ops ${ctx.mode} ${++count} ${newId().slice(-6)}`);
    await publishBuild(ctx.t.platform, website.id, starter);
    const ids: string[] = [];
    await ctx.t.platform.db.transaction(async (s) => {
      for (let i = 0; i < n; i++) {
        const id = newId();
        ids.push(id);
        await s.forms.insertSubmission(
          {
            id,
            websiteId: website.id,
            formName: "contact",
            state: "new",
            values: values(i),
            spamReasons: [],
            page: "/contact/",
            createdAt: 1_800_000_000_000 + i * 1000,
          },
          [],
        );
      }
    });
    return { website, ids };
  };

  it("lists the live forms with fields, settings and counts per state", async () => {
    const { website, ids } = await withSubmissions(3);
    await ctx.request("POST", `/websites/${website.id}/forms/submissions/update-state`, {
      body: { submissionIds: [ids[0]], state: "spam" },
    });
    const res = await ctx.request("GET", `/websites/${website.id}/forms`);
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      {
        name: "contact",
        live: true,
        page: "/contact/",
        fields: [
          { name: "name", type: "text", required: true },
          { name: "email", type: "email", required: true },
          { name: "message", type: "textarea", required: true },
        ],
        settings: { enabled: true, successUrl: null, notify: true, spamSensitivity: "medium" },
        counts: { new: 2, read: 0, spam: 1, archived: 0, total: 3 },
      },
    ]);
  });

  it("lists submissions newest first with cursors and filters; gets one", async () => {
    const { website, ids } = await withSubmissions(5);
    const base = `/websites/${website.id}/forms/submissions`;
    const first = await ctx.request("GET", `${base}?limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.items.map((s: { id: string }) => s.id)).toEqual([ids[4], ids[3]]);
    const second = await ctx.request("GET", `${base}?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.items.map((s: { id: string }) => s.id)).toEqual([ids[2], ids[1]]);
    const from = new Date(1_800_000_001_000).toISOString();
    const to = new Date(1_800_000_003_000).toISOString();
    const ranged = await ctx.request("GET", `${base}?from=${from}&to=${to}`);
    expect(ranged.body.items.map((s: { id: string }) => s.id)).toEqual([ids[2], ids[1]]);
    await ctx.request("POST", `${base}/update-state`, {
      body: { submissionIds: [ids[1], ids[3]], state: "read" },
    });
    const read = await ctx.request("GET", `${base}?state=read`);
    expect(read.body.items.map((s: { id: string }) => s.id)).toEqual([ids[3], ids[1]]);
    expect((await ctx.request("GET", `${base}?formName=other`)).body.items).toEqual([]);
    const bad = await ctx.request("GET", `${base}?state=done`);
    expect(bad.status).toBe(400);
    expect(bad.body.validValues).toEqual(["new", "read", "spam", "archived"]);
    const one = await ctx.request("GET", `${base}/${ids[0]}`);
    expect(one.body).toMatchObject({
      id: ids[0],
      formName: "contact",
      state: "new",
      values: { name: "P0" },
      files: [],
    });
    expect((await ctx.request("GET", `${base}/${newId()}`)).status).toBe(404);
  });

  it("triage and deletion are all or nothing and scoped to the website", async () => {
    const { website, ids } = await withSubmissions(2);
    const other = await withSubmissions(1);
    const base = `/websites/${website.id}/forms/submissions`;
    const foreign = await ctx.request("POST", `${base}/update-state`, {
      body: { submissionIds: [ids[0], other.ids[0]], state: "archived" },
    });
    expect(foreign.status).toBe(404);
    expect((await ctx.request("GET", `${base}?state=archived`)).body.items).toEqual([]);
    const gone = await ctx.request("POST", `${base}/delete`, { body: { submissionIds: [ids[0]] } });
    expect(gone.body).toEqual({ deleted: 1 });
    expect((await ctx.request("GET", base)).body.items.map((s: { id: string }) => s.id)).toEqual([ids[1]]);
    expect(
      (await ctx.request("GET", `/websites/${other.website.id}/forms/submissions`)).body.items,
    ).toHaveLength(1);
  });

  it("exports CSV by RFC 4180 with formula injection neutralised", async () => {
    const { website } = await withSubmissions(2, (i) =>
      i === 0
        ? { name: '=HYPERLINK("http://evil.test")', email: "a@x.test", message: 'line one\nline "two", ok' }
        : { name: "+1 555", email: "b@x.test", message: "-2+3" },
    );
    const res = await ctx.request("GET", `/websites/${website.id}/forms/submissions/export`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ contentType: "text/csv", rows: 2, truncated: false });
    expect(res.body.filename).toMatch(/^forms-submissions-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = res.body.csv.split("\r\n");
    expect(lines[0]).toBe("id,form,state,createdAt,page,name,email,message");
    expect(lines[1]).toMatch(/,'\+1 555,b@x\.test,'-2\+3$/);
    expect(res.body.csv).toContain(
      `"'=HYPERLINK(""http://evil.test"")",a@x.test,"line one\nline ""two"", ok"\r\n`,
    );
    expect(res.body.csv.endsWith("\r\n")).toBe(true);
  });

  it("settings need full_editor; content editors triage; a disabled form refuses visitors", async () => {
    const { website, ids } = await withSubmissions(1);
    const content = await ctx.t.createKey({
      kind: "websites",
      websiteIds: [website.id],
      role: "content_editor",
    });
    const full = await ctx.t.createKey({ kind: "websites", websiteIds: [website.id], role: "full_editor" });
    const path = `/websites/${website.id}/forms/contact/settings`;
    const denied = await ctx.request("PATCH", path, { key: content.plaintextKey, body: { enabled: false } });
    expect(denied.status).toBe(403);
    const triage = await ctx.request("POST", `/websites/${website.id}/forms/submissions/update-state`, {
      key: content.plaintextKey,
      body: { submissionIds: ids, state: "read" },
    });
    expect(triage.body).toEqual({ updated: 1, state: "read" });
    const badUrl = await ctx.request("PATCH", path, {
      key: full.plaintextKey,
      body: { successUrl: "javascript:alert(1)" },
    });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.message).toContain("successUrl");
    const updated = await ctx.request("PATCH", path, {
      key: full.plaintextKey,
      body: { enabled: false, successUrl: "/thanks/", spamSensitivity: "high" },
    });
    expect(updated.body).toEqual({
      formName: "contact",
      enabled: false,
      successUrl: "/thanks/",
      notify: true,
      spamSensitivity: "high",
    });
    const outside = await ctx.t.createWebsite(`Forms outside ${newId().slice(-6)}`);
    const scoped = await ctx.request("GET", `/websites/${outside.id}/forms`, { key: content.plaintextKey });
    expect(scoped.status).toBe(404);
    const host = `${website.slug}.localhost`;
    const post = async () => {
      const init = {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ name: "A", email: "a@x.test", message: "m" }),
      };
      if (ctx.mode === "server")
        return (await rawRequest(Number(new URL(ctx.origin).port), host, "/_service/forms/contact", init))
          .status;
      return (
        await ctx.t.app.fetch(
          new Request(`http://${host}/_service/forms/contact`, {
            ...init,
            headers: { ...init.headers, host },
          }),
        )
      ).status;
    };
    expect(await post()).toBe(403);
    await ctx.request("PATCH", path, { key: full.plaintextKey, body: { enabled: true } });
    expect(await post()).toBe(200);
  });
});
