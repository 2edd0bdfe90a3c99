import { expect, it } from "vitest";
import { describeMatrix } from "../support/matrix.ts";

describeMatrix("website editors", (ctx) => {
  const orgId = () => ctx.t.local.organization.id;
  let n = 0;
  const email = (what: string) => `${what}-${ctx.mode}-${++n}@example.test`;
  const site = (name: string) => ctx.t.createWebsite(`${name}-${ctx.mode}-${++n}`);

  it("grants an existing user access to one website only, and revokes it", async () => {
    const [a, b] = [await site("ed-a"), await site("ed-b")];
    const user = await ctx.t.createUser(email("editor"));
    const res = await ctx.request("POST", `/websites/${a.id}/editors`, {
      body: { email: user.email.toUpperCase(), role: "full_editor" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      websiteId: a.id,
      userId: user.id,
      email: user.email,
      role: "full_editor",
    });
    const listed = await ctx.request("GET", `/websites/${a.id}/editors`);
    expect(listed.body).toMatchObject({
      items: [{ userId: user.id, role: "full_editor" }],
      nextCursor: null,
    });

    const mine = await ctx.t.callAsUser(user.id, "websites.list", {});
    expect(mine.items.map((w: { id: string }) => w.id)).toEqual([a.id]);
    const org = await ctx.t.callAsUser(user.id, "organizations.get", { organizationId: orgId() });
    expect(org).toMatchObject({ role: "full_editor", access: "websites" });
    expect(
      (await ctx.t.callAsUser(user.id, "websites.update", { websiteId: a.id, name: "By editor" })).name,
    ).toBe("By editor");
    await expect(ctx.t.callAsUser(user.id, "websites.get", { websiteId: b.id })).rejects.toMatchObject({
      kind: "not_found",
    });
    for (const op of ["websiteEditors.list", "apiKeys.list", "organizations.members.list"]) {
      const input = op === "websiteEditors.list" ? { websiteId: a.id } : { organizationId: orgId() };
      await expect(ctx.t.callAsUser(user.id, op as "apiKeys.list", input as never)).rejects.toMatchObject({
        kind: "forbidden",
      });
    }
    await expect(ctx.t.callAsUser(user.id, "websites.delete", { websiteId: a.id })).rejects.toMatchObject({
      kind: "forbidden",
    });

    const changed = await ctx.request("POST", `/websites/${a.id}/editors`, {
      body: { userId: user.id, role: "content_editor" },
    });
    expect(changed.body.role).toBe("content_editor");
    await expect(
      ctx.t.callAsUser(user.id, "websites.update", { websiteId: a.id, name: "No" }),
    ).rejects.toMatchObject({ kind: "forbidden" });

    const revoked = await ctx.request("DELETE", `/websites/${a.id}/editors/${user.id}`);
    expect(revoked.status).toBe(200);
    expect((await ctx.request("GET", `/websites/${a.id}/editors`)).body.items).toEqual([]);
    expect((await ctx.request("DELETE", `/websites/${a.id}/editors/${user.id}`)).status).toBe(404);
    await expect(ctx.t.callAsUser(user.id, "websites.list", {})).rejects.toMatchObject({ kind: "forbidden" });
  });

  it("takes the highest of a membership and an editor grant on a website", async () => {
    const [a, b] = [await site("mix-a"), await site("mix-b")];
    const user = await ctx.t.createUser(email("mixed"), { organizationId: orgId(), role: "content_editor" });
    await ctx.t.call("websiteEditors.grant", { websiteId: a.id, userId: user.id, role: "full_editor" });
    expect(
      (await ctx.t.callAsUser(user.id, "websites.update", { websiteId: a.id, name: "Mixed" })).name,
    ).toBe("Mixed");
    await expect(
      ctx.t.callAsUser(user.id, "websites.update", { websiteId: b.id, name: "No" }),
    ).rejects.toMatchObject({ kind: "forbidden" });
    const org = await ctx.t.callAsUser(user.id, "organizations.get", { organizationId: orgId() });
    expect(org).toMatchObject({ role: "content_editor", access: "organization" });
    const orgs = await ctx.t.callAsUser(user.id, "organizations.list", {});
    expect(orgs.items).toMatchObject([{ id: orgId(), role: "content_editor", access: "organization" }]);
    const sites = await ctx.t.callAsUser(user.id, "websites.list", { limit: 100 });
    expect(sites.items.map((w: { id: string }) => w.id)).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(new Set(sites.items.map((w: { id: string }) => w.id)).size).toBe(sites.items.length);
  });

  it("refuses unknown users (suggesting an invitation), covered members, bad roles, other organizations", async () => {
    const a = await site("refuse");
    const unknown = await ctx.request("POST", `/websites/${a.id}/editors`, {
      body: { email: email("nobody"), role: "content_editor" },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.suggestion).toContain("websiteEditors.invite");
    const admin = await ctx.t.createUser(email("admin"), { organizationId: orgId(), role: "admin" });
    const covered = await ctx.request("POST", `/websites/${a.id}/editors`, {
      body: { userId: admin.id, role: "full_editor" },
    });
    expect(covered.status).toBe(409);
    const bad = await ctx.request("POST", `/websites/${a.id}/editors`, {
      body: { userId: admin.id, role: "admin" },
    });
    expect(bad.body).toMatchObject({ kind: "validation", validValues: ["full_editor", "content_editor"] });
    const both = await ctx.request("POST", `/websites/${a.id}/editors`, { body: { role: "full_editor" } });
    expect(both.body).toMatchObject({ kind: "validation", message: expect.stringMatching(/^email/) });

    const other = await ctx.t.createOrganization("Editors other");
    const theirs = await ctx.t.call(
      "websites.create",
      { name: "theirs", organizationId: other.organization.id },
      other.principal,
    );
    for (const [method, path] of [
      ["GET", `/websites/${theirs.id}/editors`],
      ["POST", `/websites/${theirs.id}/editors`],
      ["DELETE", `/websites/${theirs.id}/editors/${admin.id}`],
    ] as const) {
      const res = await ctx.request(
        method,
        path,
        method === "POST" ? { body: { userId: admin.id, role: "content_editor" } } : {},
      );
      expect(res.status).toBe(404);
    }
    const scoped = await ctx.t.createKey({ kind: "websites", websiteIds: [a.id], role: "full_editor" });
    const denied = await ctx.request("GET", `/websites/${a.id}/editors`, { key: scoped.plaintextKey });
    expect(denied.status).toBe(403);
  });

  it("invites an editor by email; accepting grants that website only", async () => {
    const a = await site("invite");
    const to = email("invitee");
    const res = await ctx.request("POST", `/websites/${a.id}/editors/invitations`, {
      body: { email: to, role: "content_editor" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      websiteId: a.id,
      organizationId: orgId(),
      role: "content_editor",
      status: "pending",
    });
    const [mail] = await ctx.t.platform.db.read((s) => s.mail.recent(1, to));
    expect(mail).toMatchObject({
      kind: "invitation",
      subject: expect.stringMatching(/^You are invited to edit invite-/),
    });
    const token = /token=([A-Za-z0-9_-]{43})/.exec(mail!.textBody)![1]!;
    const again = await ctx.request("POST", `/websites/${a.id}/editors/invitations`, {
      body: { email: to, role: "full_editor" },
    });
    expect(again.status).toBe(409);
    const listed = await ctx.request("GET", `/organizations/${orgId()}/invitations?websiteId=${a.id}`);
    expect(listed.body.items.map((i: { id: string }) => i.id)).toEqual([res.body.id]);

    const user = await ctx.t.createUser(to);
    const accepted = await ctx.t.callAsUser(user.id, "organizations.invitations.accept", { token });
    expect(accepted).toMatchObject({ status: "accepted", websiteId: a.id });
    const editors = await ctx.request("GET", `/websites/${a.id}/editors`);
    expect(editors.body.items).toMatchObject([{ userId: user.id, role: "content_editor" }]);
    const sites = await ctx.t.callAsUser(user.id, "websites.list", {});
    expect(sites.items.map((w: { id: string }) => w.id)).toEqual([a.id]);
    const members = await ctx.request("GET", `/organizations/${orgId()}/members?limit=100`);
    expect(members.body.items.map((m: { userId: string }) => m.userId)).not.toContain(user.id);
  });

  it("deleting a website removes its editors and revokes open invitations to edit it", async () => {
    const a = await site("doomed");
    const user = await ctx.t.createUser(email("doomed-editor"));
    await ctx.request("POST", `/websites/${a.id}/editors`, {
      body: { userId: user.id, role: "full_editor" },
    });
    const invited = await ctx.request("POST", `/websites/${a.id}/editors/invitations`, {
      body: { email: email("doomed-invitee"), role: "content_editor" },
    });
    expect(invited.status).toBe(200);
    expect((await ctx.request("DELETE", `/websites/${a.id}`)).status).toBe(200);
    expect(await ctx.t.platform.db.read((s) => s.websiteEditors.ofUser(user.id))).toEqual([]);
    const listed = await ctx.request("GET", `/organizations/${orgId()}/invitations?limit=100`);
    const invitation = listed.body.items.find((i: { id: string }) => i.id === invited.body.id);
    expect(invitation).toMatchObject({ status: "revoked" });
  });
});
