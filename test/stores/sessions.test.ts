import { expect, it } from "vitest";
import type { PasswordResetRecord, SessionRecord } from "../../src/db/stores/sessions.ts";
import { describeStores, hexId, user } from "./fixtures.ts";

describeStores("session store", (ctx) => {
  const session = (userId: string, overrides: Partial<SessionRecord> = {}): SessionRecord => ({
    id: hexId(),
    userId,
    createdAt: 1_000,
    expiresAt: 9_000,
    lastSeenAt: 1_000,
    ip: "127.0.0.1",
    userAgent: "test",
    ...overrides,
  });
  const seedUser = async (email?: string) => {
    const record = user(email ? { email } : {});
    await ctx.db.transaction((s) => s.organizations.insertUser(record));
    return record;
  };

  it("stores, slides, ends one and ends all sessions of a user", async () => {
    const ada = await seedUser();
    const bob = await seedUser();
    const [a1, a2, b1] = [session(ada.id), session(ada.id), session(bob.id)];
    await ctx.db.transaction(async (s) => {
      for (const record of [a1, a2, b1]) await s.sessions.insert(record);
    });
    expect(await ctx.db.read((s) => s.sessions.get(a1.id))).toStrictEqual(a1);
    await ctx.db.transaction((s) => s.sessions.touch(a1.id, 5_000, 20_000));
    expect(await ctx.db.read((s) => s.sessions.get(a1.id))).toStrictEqual({
      ...a1,
      lastSeenAt: 5_000,
      expiresAt: 20_000,
    });
    await ctx.db.transaction((s) => s.sessions.delete(b1.id));
    expect(await ctx.db.read((s) => s.sessions.get(b1.id))).toBeUndefined();
    expect(await ctx.db.transaction((s) => s.sessions.deleteForUser(ada.id))).toBe(2);
    expect(await ctx.db.read((s) => s.sessions.get(a2.id))).toBeUndefined();
    expect(await ctx.db.read((s) => s.sessions.get("missing"))).toBeUndefined();
  });

  it("uses a reset link once, and finds users by email and sets their password hash", async () => {
    const ada = await seedUser("ada@example.test");
    const reset: PasswordResetRecord = {
      id: hexId(),
      userId: ada.id,
      createdAt: 1_000,
      expiresAt: 2_000,
      usedAt: null,
    };
    await ctx.db.transaction((s) => s.sessions.insertReset(reset));
    expect(await ctx.db.read((s) => s.sessions.getReset(reset.id))).toStrictEqual(reset);
    expect(await ctx.db.transaction((s) => s.sessions.useReset(reset.id, 1_500))).toBe(true);
    expect(await ctx.db.transaction((s) => s.sessions.useReset(reset.id, 1_600))).toBe(false);
    expect((await ctx.db.read((s) => s.sessions.getReset(reset.id)))?.usedAt).toBe(1_500);
    expect(await ctx.db.transaction((s) => s.sessions.useReset("missing", 1_600))).toBe(false);

    expect(await ctx.db.read((s) => s.sessions.userByEmail("ada@example.test"))).toStrictEqual(ada);
    expect(await ctx.db.read((s) => s.sessions.userByEmail("nobody@example.test"))).toBeUndefined();
    await ctx.db.transaction((s) => s.sessions.setPasswordHash(ada.id, "scrypt$1$1$1$a$b"));
    expect((await ctx.db.read((s) => s.organizations.getUser(ada.id)))?.passwordHash).toBe(
      "scrypt$1$1$1$a$b",
    );
  });
});
