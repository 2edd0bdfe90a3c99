import { expect, it } from "vitest";
import { loadUserPrincipal } from "../../src/auth/users.ts";
import { describeMatrix } from "../support/matrix.ts";

describeMatrix("organizations: create, update, members", (ctx) => {
  const orgId = () => ctx.t.local.organization.id;
  const ownerId = () => ctx.t.local.owner.id;
  let n = 0;
  const email = (what: string) => `${what}-${ctx.mode}-${++n}@example.test`;

  it("lets a signed-in user create an organization they own; API keys get 403", async () => {
    const user = await ctx.t.createUser(email("founder"));
    const org = await ctx.t.callAsUser(user.id, "organizations.create", { name: "  Acme  " });
    expect(org).toMatchObject({ name: "Acme", role: "owner", access: "organization" });
    const mine = await ctx.t.callAsUser(user.id, "organizations.list", {});
    expect(mine.items.map((o: { id: string }) => o.id)).toEqual([org.id]);
    const audit = await ctx.t.platform.db.read((s) => s.audit.list({ organizationId: org.id, limit: 10 }));
    expect(audit).toMatchObject([
      { operationId: "organizations.create", actorId: user.id, outcome: "success" },
    ]);

    const byKey = await ctx.request("POST", "/organizations", { body: { name: "Nope" } });
    expect(byKey.status).toBe(403);
    expect(byKey.body).toMatchObject({ kind: "forbidden", message: expect.stringMatching(/signed-in user/) });
    await expect(ctx.t.callAsUser(user.id, "organizations.create", { name: " " })).rejects.toMatchObject({
      kind: "validation",
      message: expect.stringMatching(/^name/),
    });
  });

  it("renames an organization (admin); content editors and other organizations 403, unknown 404", async () => {
    const res = await ctx.request("PATCH", `/organizations/${orgId()}`, { body: { name: "Renamed" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: orgId(), name: "Renamed", role: "admin" });
    const content = await ctx.t.createKey({ kind: "organization", role: "content_editor" });
    const denied = await ctx.request("PATCH", `/organizations/${orgId()}`, {
      key: content.plaintextKey,
      body: { name: "x" },
    });
    expect(denied.status).toBe(403);
    const other = await ctx.t.createOrganization("Other rename");
    const foreign = await ctx.request("PATCH", `/organizations/${other.organization.id}`, {
      body: { name: "x" },
    });
    expect(foreign.status).toBe(403);
    const unknown = await ctx.request("PATCH", "/organizations/AAAAAAAAAAAAAAAAAAAAA", {
      body: { name: "x" },
    });
    expect(unknown.status).toBe(404);
    const got = await ctx.request("GET", `/organizations/${orgId()}`);
    expect(got.body.name).toBe("Renamed");
  });

  it("lists members oldest first with cursor pagination; non-admins get 403", async () => {
    const added = [];
    for (let i = 0; i < 3; i++) {
      added.push(
        await ctx.t.createUser(email("lister"), { organizationId: orgId(), role: "content_editor" }),
      );
    }
    const seen: { userId: string; email: string; role: string; joinedAt: string; name: string }[] = [];
    let cursor: string | undefined;
    do {
      const page = await ctx.request(
        "GET",
        `/organizations/${orgId()}/members?limit=2${cursor ? `&cursor=${cursor}` : ""}`,
      );
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.items);
      cursor = page.body.nextCursor ?? undefined;
    } while (cursor);
    expect(seen[0]).toMatchObject({ userId: ownerId(), role: "owner", email: "owner@localhost" });
    expect(seen[0]!.joinedAt).toMatch(/Z$/);
    const ids = seen.map((m) => m.userId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const user of added) expect(ids).toContain(user.id);
    // Members who joined in the same millisecond order by user id, and ids sort by creation (byte-wise on both
    // databases): the list is in the order they joined.
    const addedIds = added.map((user) => user.id);
    expect(ids.filter((id) => addedIds.includes(id))).toEqual(addedIds);

    const editor = await ctx.t.createKey({ kind: "organization", role: "full_editor" });
    const denied = await ctx.request("GET", `/organizations/${orgId()}/members`, {
      key: editor.plaintextKey,
    });
    expect(denied.status).toBe(403);
    const other = await ctx.t.createOrganization("Other members");
    const foreign = await ctx.request("GET", `/organizations/${other.organization.id}/members`);
    expect(foreign.status).toBe(403);
  });

  it("changes roles; only owners touch the owner role; the last owner cannot be demoted", async () => {
    const user = await ctx.t.createUser(email("role"), { organizationId: orgId(), role: "content_editor" });
    const path = `/organizations/${orgId()}/members/${user.id}`;
    const res = await ctx.request("PATCH", path, { body: { role: "full_editor" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ userId: user.id, role: "full_editor" });
    const principalNow = await ctx.t.callAsUser(user.id, "organizations.get", { organizationId: orgId() });
    expect(principalNow.role).toBe("full_editor");

    const bad = await ctx.request("PATCH", path, { body: { role: "superuser" } });
    expect(bad.body).toMatchObject({ kind: "validation", message: expect.stringMatching(/^role/) });
    expect(bad.body.validValues).toEqual(["owner", "admin", "full_editor", "content_editor"]);
    const promote = await ctx.request("PATCH", path, { body: { role: "owner" } });
    expect(promote.status).toBe(403);
    const demoteOwner = await ctx.request("PATCH", `/organizations/${orgId()}/members/${ownerId()}`, {
      body: { role: "admin" },
    });
    expect(demoteOwner.status).toBe(403);

    await expect(
      ctx.t.call("organizations.members.updateRole", {
        organizationId: orgId(),
        userId: ownerId(),
        role: "admin",
      }),
    ).rejects.toMatchObject({
      kind: "conflict",
      message: expect.stringMatching(/last owner/),
      options: { suggestion: expect.stringContaining("{{organizations.members.updateRole}}") },
    });
    const unknown = await ctx.request("PATCH", `/organizations/${orgId()}/members/AAAAAAAAAAAAAAAAAAAAA`, {
      body: { role: "admin" },
    });
    expect(unknown.status).toBe(404);
    const members = await ctx.request("GET", `/organizations/${orgId()}/members?limit=100`);
    expect(members.body.items.find((m: { userId: string }) => m.userId === ownerId()).role).toBe("owner");
  });

  it("an owner can appoint a second owner, after which one owner can step down", async () => {
    const other = await ctx.t.createOrganization("Two owners");
    const org = other.organization.id;
    const second = await ctx.t.createUser(email("second"), { organizationId: org, role: "admin" });
    await ctx.t.call(
      "organizations.members.updateRole",
      { organizationId: org, userId: second.id, role: "owner" },
      other.principal,
    );
    const down = await ctx.t.callAsUser(second.id, "organizations.members.updateRole", {
      organizationId: org,
      userId: other.owner.id,
      role: "admin",
    });
    expect(down.role).toBe("admin");
    await expect(
      ctx.t.callAsUser(second.id, "organizations.members.remove", { organizationId: org, userId: second.id }),
    ).rejects.toMatchObject({ kind: "conflict", message: expect.stringMatching(/last owner/) });
  });

  it("removes a member with their website editor grants; the last owner cannot be removed", async () => {
    const site = await ctx.t.createWebsite(`members-${ctx.mode}`);
    const user = await ctx.t.createUser(email("removed"), {
      organizationId: orgId(),
      role: "content_editor",
    });
    await ctx.t.call("websiteEditors.grant", { websiteId: site.id, userId: user.id, role: "full_editor" });
    const before = await ctx.t.callAsUser(user.id, "websites.update", { websiteId: site.id, name: "Edited" });
    expect(before.name).toBe("Edited");

    const res = await ctx.request("DELETE", `/organizations/${orgId()}/members/${user.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      organizationId: orgId(),
      userId: user.id,
      removed: true,
      websiteEditorGrantsRemoved: 1,
    });
    // no grant is left anywhere: the capability check refuses before any scope check
    await expect(ctx.t.callAsUser(user.id, "websites.get", { websiteId: site.id })).rejects.toMatchObject({
      kind: "forbidden",
    });
    const principal = await ctx.t.platform.db.read((s) => loadUserPrincipal(s, user.id));
    expect(principal?.grants).toEqual([]);
    const again = await ctx.request("DELETE", `/organizations/${orgId()}/members/${user.id}`);
    expect(again.status).toBe(404);

    const ownerByKey = await ctx.request("DELETE", `/organizations/${orgId()}/members/${ownerId()}`);
    expect(ownerByKey.status).toBe(403);
    await expect(
      ctx.t.call("organizations.members.remove", { organizationId: orgId(), userId: ownerId() }),
    ).rejects.toMatchObject({
      kind: "conflict",
      options: { suggestion: expect.stringContaining("Transfer ownership") },
    });
    const members = await ctx.request("GET", `/organizations/${orgId()}/members?limit=100`);
    expect(members.body.items.map((m: { userId: string }) => m.userId)).toContain(ownerId());
    const content = await ctx.t.createKey({ kind: "organization", role: "content_editor" });
    const denied = await ctx.request("DELETE", `/organizations/${orgId()}/members/${ownerId()}`, {
      key: content.plaintextKey,
    });
    expect(denied.status).toBe(403);
  });

  it("lets any member leave, with their editor grants; the last owner cannot; keys get 403", async () => {
    const site = await ctx.t.createWebsite(`leave-${ctx.mode}`);
    const user = await ctx.t.createUser(email("leaver"), { organizationId: orgId(), role: "content_editor" });
    await ctx.t.call("websiteEditors.grant", { websiteId: site.id, userId: user.id, role: "full_editor" });
    const left = await ctx.t.callAsUser(user.id, "organizations.leave", { organizationId: orgId() });
    expect(left).toEqual({
      organizationId: orgId(),
      userId: user.id,
      left: true,
      websiteEditorGrantsRemoved: 1,
    });
    expect((await ctx.t.platform.db.read((s) => loadUserPrincipal(s, user.id)))?.grants).toEqual([]);
    const audit = await ctx.t.platform.db.read((s) => s.audit.list({ organizationId: orgId(), limit: 5 }));
    // Newest first, also when the grant and the leave share a millisecond (ids sort by creation).
    expect(audit.map((entry) => entry.operationId).slice(0, 2)).toStrictEqual([
      "organizations.leave",
      "websiteEditors.grant",
    ]);
    expect(audit[0]).toMatchObject({
      operationId: "organizations.leave",
      actorId: user.id,
      outcome: "success",
    });

    // A website editor who is not a member has nothing to leave.
    const editor = await ctx.t.createUser(email("editor-only"));
    await ctx.t.call("websiteEditors.grant", {
      websiteId: site.id,
      userId: editor.id,
      role: "content_editor",
    });
    await expect(
      ctx.t.callAsUser(editor.id, "organizations.leave", { organizationId: orgId() }),
    ).rejects.toMatchObject({ kind: "not_found" });

    await expect(
      ctx.t.callAsUser(ownerId(), "organizations.leave", { organizationId: orgId() }),
    ).rejects.toMatchObject({ kind: "conflict", message: expect.stringMatching(/last owner/) });
    const byKey = await ctx.request("POST", `/organizations/${orgId()}/leave`, { body: {} });
    expect(byKey.status).toBe(403);
  });
});
