import { expect, it } from "vitest";
import type { WebsiteEditorRecord } from "../../src/db/stores/website-editors.ts";
import { describeStores, hexId, seedOrganization, user, website } from "./fixtures.ts";

describeStores("email verification store and pending editor grants", (ctx) => {
  const seedUser = async () => {
    const record = user();
    await ctx.db.transaction((s) => s.organizations.insertUser(record));
    return record;
  };

  it("uses a verification link once, drops a user's unused links, and marks the user verified once", async () => {
    const ada = await seedUser();
    const link = {
      id: hexId(),
      userId: ada.id,
      email: ada.email,
      createdAt: 1_000,
      expiresAt: 2_000,
      usedAt: null,
    };
    const spare = { ...link, id: hexId() };
    await ctx.db.transaction(async (s) => {
      await s.emailVerifications.insert(link);
      await s.emailVerifications.insert(spare);
    });
    expect(await ctx.db.read((s) => s.emailVerifications.get(link.id))).toStrictEqual(link);
    const uses = await Promise.all([
      ctx.db.transaction((s) => s.emailVerifications.use(link.id, 1_500)),
      ctx.db.transaction((s) => s.emailVerifications.use(link.id, 1_600)),
    ]);
    expect(uses.sort()).toStrictEqual([false, true]);
    await ctx.db.transaction((s) => s.emailVerifications.deleteUnusedForUser(ada.id));
    expect(await ctx.db.read((s) => s.emailVerifications.get(spare.id))).toBeUndefined();
    expect((await ctx.db.read((s) => s.emailVerifications.get(link.id)))?.usedAt).toBe(1_500);

    expect((await ctx.db.read((s) => s.organizations.getUser(ada.id)))?.emailVerifiedAt).toBeNull();
    expect(await ctx.db.transaction((s) => s.emailVerifications.markVerified(ada.id, 3_000))).toBe(true);
    expect(await ctx.db.transaction((s) => s.emailVerifications.markVerified(ada.id, 4_000))).toBe(false);
    expect((await ctx.db.read((s) => s.organizations.getUser(ada.id)))?.emailVerifiedAt).toBe(3_000);
  });

  it("keeps pending editor grants out of the user's access until applied, and lists them with their state", async () => {
    const org = await seedOrganization(ctx.db);
    const [a, b] = [website(org.id), website(org.id)];
    const bob = await seedUser();
    await ctx.db.transaction(async (s) => {
      await s.websites.insert(a);
      await s.websites.insert(b);
    });
    const grant = (websiteId: string, pendingVerification: boolean): WebsiteEditorRecord => ({
      websiteId,
      userId: bob.id,
      organizationId: org.id,
      role: "full_editor",
      createdAt: 1_000,
      createdByType: "user",
      createdById: "admin",
      pendingVerification,
    });
    await ctx.db.transaction(async (s) => {
      await s.websiteEditors.upsert(grant(a.id, false));
      await s.websiteEditors.upsert(grant(b.id, true));
    });
    expect((await ctx.db.read((s) => s.websiteEditors.ofUser(bob.id))).map((g) => g.websiteId)).toStrictEqual(
      [a.id],
    );
    expect(await ctx.db.read((s) => s.websiteEditors.get(b.id, bob.id))).toMatchObject({
      pendingVerification: true,
      email: bob.email,
    });
    expect(await ctx.db.transaction((s) => s.websiteEditors.applyPending(bob.id))).toBe(1);
    expect(await ctx.db.transaction((s) => s.websiteEditors.applyPending(bob.id))).toBe(0);
    const access = await ctx.db.read((s) => s.websiteEditors.ofUser(bob.id));
    expect(access.map((g) => g.websiteId).sort()).toStrictEqual([a.id, b.id].sort());
    expect(access.every((g) => g.pendingVerification === false)).toBe(true);
  });
});
