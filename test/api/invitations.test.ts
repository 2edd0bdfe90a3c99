import { createHash } from "node:crypto";
import { expect, it } from "vitest";
import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { ApiError } from "../../src/kernel/errors.ts";
import { callTool } from "../../src/kernel/pipeline.ts";
import { organizationsGroup } from "../../tools/organizations/group.ts";
import { describeMatrix, type MatrixContext } from "../support/matrix.ts";

/** The newest invitation mail to `to` and the token of its accept link. */
async function mailTo(ctx: MatrixContext, to: string) {
  const [mail] = await ctx.t.platform.db.read((s) => s.mail.recent(1, to.toLowerCase()));
  const token = mail && /\/invitations\/accept\?token=([A-Za-z0-9_-]{43})/.exec(mail.textBody)?.[1];
  return { mail, token: token ?? "" };
}

const setInvitation = (ctx: MatrixContext, id: string, patch: { expiresAt?: number; lastSentAt?: number }) =>
  ctx.t.platform.db.transaction((s) => s.invitations.update(id, { ...patch, updatedAt: Date.now() }));

describeMatrix("organization invitations", (ctx) => {
  const orgId = () => ctx.t.local.organization.id;
  const path = () => `/organizations/${orgId()}/invitations`;
  let n = 0;
  const email = (what: string) => `${what}-${ctx.mode}-${++n}@Example.test`;

  it("invites by email, mails a working accept link after commit, and never returns the token", async () => {
    const to = email("new");
    const res = await ctx.request("POST", path(), { body: { email: to, role: "full_editor" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      organizationId: orgId(),
      websiteId: null,
      email: to.toLowerCase(),
      role: "full_editor",
      status: "pending",
      invitedBy: { type: "api_key", id: ctx.t.adminKey.id },
      sendCount: 1,
      acceptedAt: null,
    });
    expect(Date.parse(res.body.expiresAt) - Date.parse(res.body.createdAt)).toBe(7 * 24 * 3600 * 1000);
    const { mail, token } = await mailTo(ctx, to);
    expect(mail).toMatchObject({ kind: "invitation", sentAt: expect.any(Number) });
    expect(mail!.textBody).toContain(`${ctx.t.platform.config.appUrl}/invitations/accept?token=${token}`);
    expect(JSON.stringify(res.body)).not.toContain(token);
    const stored = await ctx.t.platform.db.read((s) => s.invitations.get(res.body.id));
    expect(stored?.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    const listed = await ctx.request("GET", `${path()}?status=pending`);
    expect(JSON.stringify(listed.body)).not.toContain(token);

    const user = await ctx.t.createUser(to.toUpperCase());
    const accepted = await ctx.t.callAsUser(user.id, "organizations.invitations.accept", { token });
    expect(accepted).toMatchObject({ id: res.body.id, status: "accepted", acceptedAt: expect.any(String) });
    const org = await ctx.t.callAsUser(user.id, "organizations.get", { organizationId: orgId() });
    expect(org).toMatchObject({ role: "full_editor", access: "organization" });
    await expect(
      ctx.t.callAsUser(user.id, "organizations.invitations.accept", { token }),
    ).rejects.toMatchObject({ kind: "conflict", message: expect.stringMatching(/already accepted/) });
    const acceptedList = await ctx.request("GET", `${path()}?status=accepted`);
    expect(acceptedList.body.items.map((i: { id: string }) => i.id)).toContain(res.body.id);
  });

  it("refuses an email already a member, a duplicate pending invitation, and bad roles; nothing changes", async () => {
    const member = await ctx.t.createUser(email("member"), {
      organizationId: orgId(),
      role: "content_editor",
    });
    const mailsBefore = (await ctx.t.platform.db.read((s) => s.mail.recent(100))).length;
    const dup = await ctx.request("POST", path(), {
      body: { email: member.email.toUpperCase(), role: "admin" },
    });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ kind: "conflict", message: expect.stringMatching(/already a member/) });
    expect(dup.body.suggestion).toContain("organizations.members.updateRole");

    const to = email("twice");
    expect((await ctx.request("POST", path(), { body: { email: to, role: "admin" } })).status).toBe(200);
    const again = await ctx.request("POST", path(), { body: { email: to, role: "content_editor" } });
    expect(again.body).toMatchObject({
      kind: "conflict",
      message: expect.stringMatching(/pending invitation/),
    });

    const badRole = await ctx.request("POST", path(), { body: { email: email("x"), role: "god" } });
    expect(badRole.body).toMatchObject({ kind: "validation", message: expect.stringMatching(/^role/) });
    expect(badRole.body.validValues).toEqual(["owner", "admin", "full_editor", "content_editor"]);
    const badEmail = await ctx.request("POST", path(), { body: { email: "not-an-email", role: "admin" } });
    expect(badEmail.body).toMatchObject({ kind: "validation", message: expect.stringMatching(/^email/) });
    const owner = await ctx.request("POST", path(), { body: { email: email("o"), role: "owner" } });
    expect(owner.status).toBe(403);
    const byOwner = await ctx.t.call("organizations.invitations.create", {
      organizationId: orgId(),
      email: email("o"),
      role: "owner",
    });
    expect(byOwner.role).toBe("owner");
    const mailsAfter = await ctx.t.platform.db.read((s) => s.mail.recent(100));
    expect(mailsAfter.length).toBe(mailsBefore + 2);
  });

  it("refuses the wrong user, API keys, revoked, expired and replaced links with clear errors", async () => {
    const to = email("guarded");
    const created = await ctx.request("POST", path(), { body: { email: to, role: "content_editor" } });
    const { token } = await mailTo(ctx, to);
    const stranger = await ctx.t.createUser(email("stranger"));
    await expect(
      ctx.t.callAsUser(stranger.id, "organizations.invitations.accept", { token }),
    ).rejects.toMatchObject({ kind: "forbidden", message: expect.stringMatching(/different email/) });
    const byKey = await ctx.request("POST", "/invitations/accept", { body: { token } });
    expect(byKey.status).toBe(403);
    expect(byKey.body.message).toMatch(/signed-in user/);
    const invitee = await ctx.t.createUser(to);
    await expect(
      ctx.t.callAsUser(invitee.id, "organizations.invitations.accept", { token: "A".repeat(43) }),
    ).rejects.toMatchObject({ kind: "not_found", message: expect.stringMatching(/^token/) });

    // expired: refused; resend renews it with a new link and the old one stops working
    await setInvitation(ctx, created.body.id, {
      expiresAt: Date.now() - 1,
      lastSentAt: Date.now() - 120_000,
    });
    await expect(
      ctx.t.callAsUser(invitee.id, "organizations.invitations.accept", { token }),
    ).rejects.toMatchObject({ kind: "conflict", message: expect.stringMatching(/expired/) });
    const expired = await ctx.request("GET", `${path()}?status=expired`);
    expect(expired.body.items.map((i: { id: string }) => i.id)).toContain(created.body.id);
    const resent = await ctx.request("POST", `${path()}/${created.body.id}/resend`);
    expect(resent.body).toMatchObject({ status: "pending", sendCount: 2 });
    const fresh = (await mailTo(ctx, to)).token;
    expect(fresh).not.toBe(token);
    await expect(
      ctx.t.callAsUser(invitee.id, "organizations.invitations.accept", { token }),
    ).rejects.toMatchObject({ kind: "not_found" });
    const tooSoon = await ctx.request("POST", `${path()}/${created.body.id}/resend`);
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.body).toMatchObject({ kind: "rate_limited", retryAfterSeconds: expect.any(Number) });
    expect(tooSoon.headers.get("retry-after")).toBe(String(tooSoon.body.retryAfterSeconds));

    // revoked: refused, and cannot be resent
    const revoked = await ctx.request("POST", `${path()}/${created.body.id}/revoke`);
    expect(revoked.body.status).toBe("revoked");
    await expect(
      ctx.t.callAsUser(invitee.id, "organizations.invitations.accept", { token: fresh }),
    ).rejects.toMatchObject({ kind: "conflict", message: expect.stringMatching(/revoked/) });
    await setInvitation(ctx, created.body.id, { lastSentAt: Date.now() - 120_000 });
    const resendRevoked = await ctx.request("POST", `${path()}/${created.body.id}/resend`);
    expect(resendRevoked.status).toBe(409);
    const principal = await ctx.t.callAsUser(invitee.id, "organizations.list", {}).catch((e) => e);
    expect(principal.kind).toBe("forbidden"); // still no grant anywhere
  });

  it("scopes invitations: other organizations' are not found, non-admins are forbidden", async () => {
    const other = await ctx.t.createOrganization("Invite other");
    const foreign = await ctx.t.call(
      "organizations.invitations.create",
      { organizationId: other.organization.id, email: email("foreign"), role: "admin" },
      other.principal,
    );
    const viaMine = await ctx.request("POST", `${path()}/${foreign.id}/revoke`);
    expect(viaMine.status).toBe(404);
    const viaTheirs = await ctx.request(
      "POST",
      `/organizations/${other.organization.id}/invitations/${foreign.id}/revoke`,
    );
    expect(viaTheirs.status).toBe(403);
    const listTheirs = await ctx.request("GET", `/organizations/${other.organization.id}/invitations`);
    expect(listTheirs.status).toBe(403);
    const editor = await ctx.t.createKey({ kind: "organization", role: "full_editor" });
    const denied = await ctx.request("POST", path(), {
      key: editor.plaintextKey,
      body: { email: email("e"), role: "content_editor" },
    });
    expect(denied.status).toBe(403);
    const bad = await ctx.request("GET", `${path()}?status=unknown`);
    expect(bad.body.validValues).toEqual(["pending", "accepted", "revoked", "expired"]);
  });

  it("pages invitations newest first", async () => {
    const org = await ctx.t.createOrganization("Invite pages");
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const inv = await ctx.t.call(
        "organizations.invitations.create",
        { organizationId: org.organization.id, email: email("page"), role: "content_editor" },
        org.principal,
      );
      ids.push(inv.id); // within one millisecond or not, newer ids sort after older ones
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await ctx.t.call(
        "organizations.invitations.list",
        { organizationId: org.organization.id, limit: 2, ...(cursor ? { cursor } : {}) },
        org.principal,
      );
      seen.push(...page.items.map((i: { id: string }) => i.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toStrictEqual([...ids].reverse());
  });

  it("runs after-commit work only once the transaction committed, and a mail failure does not undo it", async () => {
    const ran: string[] = [];
    const probe = (fail: boolean) =>
      defineTool({
        operationId: "test.afterCommit",
        group: organizationsGroup,
        title: "probe",
        description: "probe",
        input: z.object({ organizationId: z.string() }).strict(),
        output: z.object({ id: z.string() }),
        access: "admin",
        annotations: presets.create,
        scope: { organizationId: "organizationId" },
        http: { method: "POST", path: "/test" },
        async handler(input, hctx) {
          await hctx.stores.organizations.update(input.organizationId, {
            name: "Probed",
            updatedAt: hctx.now,
          });
          hctx.afterCommit(async () => {
            const org = await hctx.platform.db.read((s) => s.organizations.get(input.organizationId));
            ran.push(org!.name);
          });
          if (fail) throw new ApiError("conflict", "probe failed");
          return { id: input.organizationId };
        },
      });
    const other = await ctx.t.createOrganization("After commit");
    const call = { principal: other.principal, transport: "internal" as const, requestId: "req_probe" };
    const input = { organizationId: other.organization.id };
    await expect(callTool(ctx.t.platform, probe(true), input, call)).rejects.toMatchObject({
      kind: "conflict",
    });
    expect(ran).toEqual([]);
    await callTool(ctx.t.platform, probe(false), input, call);
    expect(ran).toEqual(["Probed"]);

    const { mail, log } = ctx.t.platform;
    const errors: string[] = [];
    ctx.t.platform.mail = { ...mail, send: async () => Promise.reject(new Error("smtp down")) };
    ctx.t.platform.log = { ...log, error: (message: string) => void errors.push(message) };
    try {
      const res = await ctx.t.call("organizations.invitations.create", {
        organizationId: orgId(),
        email: email("smtp"),
        role: "content_editor",
      });
      expect(res.status).toBe("pending");
      expect(errors).toEqual([expect.stringMatching(/organizations\.invitations\.create after-commit/)]);
    } finally {
      ctx.t.platform.mail = mail;
      ctx.t.platform.log = log;
    }
  });
});
