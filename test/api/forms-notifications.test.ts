import { afterAll, beforeAll, expect, it } from "vitest";
import { buildSite, closeSandboxPool, starterFiles } from "../../src/framework/index.ts";
import type { BuildResult } from "../../src/framework/types.ts";
import { newId } from "../../src/kernel/ids.ts";
import { publishBuild, rawRequest } from "../support/hosting.ts";
import { describeMatrix } from "../support/matrix.ts";
import { useSmtpSink } from "../support/smtp-sink.ts";

// Mail leaves through the platform's real SMTP transport to a sink speaking SMTP on loopback.
const sink = useSmtpSink();
const { config } = sink;
let starter: BuildResult;
beforeAll(async () => {
  starter = await buildSite({ files: starterFiles("Notified"), organizationId: "org_test", mode: "publish" });
}, 120_000);
afterAll(() => closeSandboxPool());

describeMatrix(
  "form notification recipients",
  (ctx) => {
    const submit = async (host: string, name: string) => {
      const init = {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ name, email: "visitor@example.test", message: `hello from ${name}` }),
      };
      if (ctx.mode === "server") {
        return (await rawRequest(Number(new URL(ctx.origin).port), host, "/_service/forms/contact", init))
          .status;
      }
      const req = new Request(`http://${host}/_service/forms/contact`, {
        ...init,
        headers: { ...init.headers, host },
      });
      return (await ctx.t.app.fetch(req)).status;
    };

    it("mails only confirmed recipients; confirming takes the link's button; removal stops mail", async () => {
      const website = await ctx.t.createWebsite(`Notified ${ctx.mode} ${newId().slice(-6)}`);
      await publishBuild(ctx.t.platform, website.id, starter);
      const host = `${website.slug}.localhost`;
      const to = `owner-${newId().slice(-8).toLowerCase()}@example.test`;
      const base = `/websites/${website.id}/forms/recipients`;
      const content = await ctx.t.createKey({
        kind: "websites",
        websiteIds: [website.id],
        role: "content_editor",
      });
      expect(
        (await ctx.request("POST", base, { key: content.plaintextKey, body: { email: to } })).status,
      ).toBe(403);
      expect((await ctx.request("POST", base, { body: { email: "not an address" } })).status).toBe(400);

      const added = await ctx.request("POST", base, { body: { email: to.toUpperCase() } });
      expect(added.status).toBe(200);
      expect(added.body).toMatchObject({ email: to, status: "pending", confirmedAt: null });
      const mail = await sink.waitFor(
        (m) => m.to.includes(to) && m.text.includes("/forms/recipients/confirm?token="),
      );
      const link = /(http:\/\/\S+\/forms\/recipients\/confirm\?token=[\w-]+)/.exec(mail.text)![1]!;

      // Pending: a submission is stored but nobody is mailed.
      expect(await submit(host, "before-confirm")).toBe(200);
      const token = new URL(link).searchParams.get("token")!;
      // Opening the link (as a mail scanner would) confirms nothing.
      const shown = await ctx.fetch(`/forms/recipients/confirm?token=${token}`);
      expect(shown.status).toBe(200);
      expect(await shown.text()).toContain('<button class="button" type="submit">Confirm</button>');
      expect((await ctx.request("GET", base)).body.items[0].status).toBe("pending");
      const wrong = await ctx.fetch("/forms/recipients/confirm", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "token=nope",
      });
      expect(wrong.status).toBe(404);
      const confirmed = await ctx.fetch("/forms/recipients/confirm", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token }).toString(),
      });
      expect(confirmed.status).toBe(200);
      expect(await confirmed.text()).toContain(`${to} will be mailed new form submissions.`);
      const listed = await ctx.request("GET", base);
      expect(listed.body.items).toEqual([
        expect.objectContaining({ email: to, status: "confirmed", confirmedAt: expect.any(String) }),
      ]);

      expect(await submit(host, "after-confirm")).toBe(200);
      const notice = await sink.waitFor((m) => m.to.includes(to) && m.text.includes("after-confirm"));
      expect(notice.headers.subject).toContain("New contact submission");
      expect(notice.text).toContain("message: hello from after-confirm");
      expect(sink.messages.some((m) => m.to.includes(to) && m.text.includes("before-confirm"))).toBe(false);

      // Notifications off for the form: stored, not mailed.
      await ctx.request("PATCH", `/websites/${website.id}/forms/contact/settings`, {
        body: { notify: false },
      });
      expect(await submit(host, "notify-off")).toBe(200);
      await ctx.request("PATCH", `/websites/${website.id}/forms/contact/settings`, {
        body: { notify: true },
      });

      const removed = await ctx.request("POST", `${base}/${listed.body.items[0].id}/delete`);
      expect(removed.body).toEqual({ id: listed.body.items[0].id, removed: true });
      expect(await submit(host, "after-remove")).toBe(200);
      const stored = await ctx.request("GET", `/websites/${website.id}/forms/submissions`);
      expect(stored.body.items.map((s: { values: { name: string } }) => s.values.name)).toEqual([
        "after-remove",
        "notify-off",
        "after-confirm",
        "before-confirm",
      ]);
      expect(sink.messages.filter((m) => m.to.includes(to)).map((m) => m.headers.subject)).toHaveLength(2);
    });
  },
  { config },
);
