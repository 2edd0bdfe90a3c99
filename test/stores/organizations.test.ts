import { expect, it } from "vitest";
import { describeStores, organization, user } from "./fixtures.ts";

describeStores("organization store", (ctx) => {
  it("returns an inserted organization exactly, and nothing for an unknown id", async () => {
    const org = organization({
      name: "Corner Bakery",
      createdAt: 1_700_000_000_123,
      updatedAt: 1_700_000_000_456,
    });
    await ctx.db.transaction((s) => s.organizations.insert(org));
    expect(await ctx.db.read((s) => s.organizations.get(org.id))).toStrictEqual(org);
    expect(await ctx.db.read((s) => s.organizations.get("missing"))).toBeUndefined();
  });

  it("lists only the requested organizations, oldest first with ties by id, whatever the argument order", async () => {
    const late = organization({ id: "org-c", createdAt: 3_000 });
    const early = organization({ id: "org-z", createdAt: 1_000 });
    const tieB = organization({ id: "org-b", createdAt: 2_000 });
    const tieA = organization({ id: "org-a", createdAt: 2_000 });
    const other = organization({ id: "org-0", createdAt: 500 });
    await ctx.db.transaction(async (s) => {
      for (const org of [late, tieB, other, early, tieA]) await s.organizations.insert(org);
    });
    const listed = await ctx.db.read((s) =>
      s.organizations.listByIds([late.id, tieB.id, "unknown", early.id, tieA.id, late.id]),
    );
    expect(listed).toStrictEqual([early, tieA, tieB, late]);
    expect(await ctx.db.read((s) => s.organizations.listByIds([]))).toStrictEqual([]);
  });

  it("finds the first organization: the oldest, ties broken by id; none in an empty database", async () => {
    expect(await ctx.db.read((s) => s.organizations.first())).toBeUndefined();
    const newer = organization({ id: "a-newer", createdAt: 2_000 });
    const oldestB = organization({ id: "m-oldest", createdAt: 1_000 });
    const oldestA = organization({ id: "k-oldest", createdAt: 1_000 });
    await ctx.db.transaction(async (s) => {
      await s.organizations.insert(newer);
      await s.organizations.insert(oldestB);
      await s.organizations.insert(oldestA);
    });
    expect(await ctx.db.read((s) => s.organizations.first())).toStrictEqual(oldestA);
  });

  it("stores users with and without a password hash and enforces unique emails", async () => {
    const withPassword = user({ passwordHash: "scrypt$abc", name: "Ada Lovelace", createdAt: 1_234 });
    const withoutPassword = user();
    await ctx.db.transaction(async (s) => {
      await s.organizations.insertUser(withPassword);
      await s.organizations.insertUser(withoutPassword);
    });
    expect(await ctx.db.read((s) => s.organizations.getUser(withPassword.id))).toStrictEqual(withPassword);
    expect(await ctx.db.read((s) => s.organizations.getUser(withoutPassword.id))).toStrictEqual(
      withoutPassword,
    );
    expect(await ctx.db.read((s) => s.organizations.getUser("missing"))).toBeUndefined();

    const clash = user({ email: withPassword.email });
    await expect(ctx.db.transaction((s) => s.organizations.insertUser(clash))).rejects.toThrow();
    expect(await ctx.db.read((s) => s.organizations.getUser(clash.id))).toBeUndefined();
  });

  it("lists a user's memberships across organizations and no one else's", async () => {
    const [o1, o2, o3] = [organization(), organization(), organization()];
    const [ada, bob] = [user(), user()];
    await ctx.db.transaction(async (s) => {
      for (const org of [o1!, o2!, o3!]) await s.organizations.insert(org);
      await s.organizations.insertUser(ada!);
      await s.organizations.insertUser(bob!);
      await s.organizations.insertMembership({
        organizationId: o1!.id,
        userId: ada!.id,
        role: "owner",
        createdAt: 1,
      });
      await s.organizations.insertMembership({
        organizationId: o2!.id,
        userId: ada!.id,
        role: "editor",
        createdAt: 2,
      });
      await s.organizations.insertMembership({
        organizationId: o3!.id,
        userId: bob!.id,
        role: "owner",
        createdAt: 3,
      });
    });
    const memberships = await ctx.db.read((s) => s.organizations.membershipsOfUser(ada!.id));
    const byOrg = [...memberships].sort((a, b) => a.createdAt - b.createdAt);
    expect(byOrg).toStrictEqual([
      { organizationId: o1!.id, userId: ada!.id, role: "owner", createdAt: 1 },
      { organizationId: o2!.id, userId: ada!.id, role: "editor", createdAt: 2 },
    ]);
    expect(await ctx.db.read((s) => s.organizations.membershipsOfUser("nobody"))).toStrictEqual([]);
  });

  it("refuses a second membership of the same user in the same organization", async () => {
    const org = organization();
    const ada = user();
    await ctx.db.transaction(async (s) => {
      await s.organizations.insert(org);
      await s.organizations.insertUser(ada);
      await s.organizations.insertMembership({
        organizationId: org.id,
        userId: ada.id,
        role: "owner",
        createdAt: 1,
      });
    });
    await expect(
      ctx.db.transaction((s) =>
        s.organizations.insertMembership({
          organizationId: org.id,
          userId: ada.id,
          role: "viewer",
          createdAt: 2,
        }),
      ),
    ).rejects.toThrow();
    expect(await ctx.db.read((s) => s.organizations.membershipsOfUser(ada.id))).toStrictEqual([
      { organizationId: org.id, userId: ada.id, role: "owner", createdAt: 1 },
    ]);
  });

  it("lists the members holding a role in one organization, oldest first", async () => {
    const [org, other] = [organization(), organization()];
    const people = Array.from({ length: 5 }, () => user());
    await ctx.db.transaction(async (s) => {
      await s.organizations.insert(org!);
      await s.organizations.insert(other!);
      for (const person of people) await s.organizations.insertUser(person);
      const add = (organizationId: string, i: number, role: string, createdAt: number) =>
        s.organizations.insertMembership({ organizationId, userId: people[i]!.id, role, createdAt });
      await add(org!.id, 0, "owner", 300);
      await add(org!.id, 1, "admin", 100);
      await add(org!.id, 2, "owner", 200);
      await add(org!.id, 3, "owner", 50);
      await add(other!.id, 4, "owner", 10);
    });
    const owners = await ctx.db.read((s) => s.organizations.membersWithRole(org!.id, "owner"));
    expect(owners.map((m) => [m.userId, m.createdAt])).toStrictEqual([
      [people[3]!.id, 50],
      [people[2]!.id, 200],
      [people[0]!.id, 300],
    ]);
    expect(owners.every((m) => m.organizationId === org!.id && m.role === "owner")).toBe(true);
    expect(await ctx.db.read((s) => s.organizations.membersWithRole(org!.id, "viewer"))).toStrictEqual([]);
  });

  it("refuses a membership that names an unknown organization or user", async () => {
    const ada = user();
    await ctx.db.transaction((s) => s.organizations.insertUser(ada));
    await expect(
      ctx.db.transaction((s) =>
        s.organizations.insertMembership({
          organizationId: "missing",
          userId: ada.id,
          role: "owner",
          createdAt: 1,
        }),
      ),
    ).rejects.toThrow();
    expect(await ctx.db.read((s) => s.organizations.membershipsOfUser(ada.id))).toStrictEqual([]);
  });
});
