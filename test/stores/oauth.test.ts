import { expect, it } from "vitest";
import type {
  OAuthClientRecord,
  OAuthCodeRecord,
  OAuthGrantRecord,
  OAuthTokenRecord,
} from "../../src/db/stores/oauth.ts";
import { describeStores, hexId } from "./fixtures.ts";

describeStores("OAuth store", (ctx) => {
  const client = (overrides: Partial<OAuthClientRecord> = {}): OAuthClientRecord => ({
    id: `https://client.example/${hexId()}.json`,
    kind: "metadata_document",
    name: "Client",
    redirectUris: ["http://127.0.0.1/cb"],
    metadata: { client_name: "Client", nested: { a: [1, 2] } },
    createdAt: 1_000,
    updatedAt: 1_000,
    fetchedAt: 1_000,
    cacheExpiresAt: 2_000,
    ...overrides,
  });
  const grant = (overrides: Partial<OAuthGrantRecord> = {}): OAuthGrantRecord => ({
    id: hexId(),
    userId: "usr_1",
    clientId: "swc_1",
    organizationId: "org_1",
    websiteIds: ["w1", "w2"],
    access: "read",
    toolsets: ["websites", "docs"],
    scope: "mcp:read",
    createdAt: 1_000,
    updatedAt: 1_000,
    lastUsedAt: null,
    revokedAt: null,
    ...overrides,
  });
  const token = (
    grantId: string,
    familyId: string,
    overrides: Partial<OAuthTokenRecord> = {},
  ): OAuthTokenRecord => ({
    id: hexId(),
    kind: "access",
    grantId,
    familyId,
    clientId: "swc_1",
    resource: "http://localhost/v1/mcp",
    scope: "mcp:read",
    createdAt: 1_000,
    expiresAt: 9_000,
    usedAt: null,
    revokedAt: null,
    ...overrides,
  });

  it("saves a client and replaces it on refresh, keeping its creation time", async () => {
    const record = client();
    await ctx.db.transaction((s) => s.oauth.saveClient(record));
    expect(await ctx.db.read((s) => s.oauth.getClient(record.id))).toStrictEqual(record);
    const refreshed = {
      ...record,
      name: "Renamed",
      updatedAt: 5_000,
      cacheExpiresAt: 9_000,
      createdAt: 4_000,
    };
    await ctx.db.transaction((s) => s.oauth.saveClient(refreshed));
    expect(await ctx.db.read((s) => s.oauth.getClient(record.id))).toStrictEqual({
      ...refreshed,
      createdAt: 1_000,
    });
  });

  it("lists a user's active grants newest first, touches at most once per interval, revokes", async () => {
    const userId = `usr_${hexId()}`;
    const [older, newer, all] = [
      grant({ userId, createdAt: 1_000 }),
      grant({ userId, createdAt: 2_000 }),
      grant({ userId, createdAt: 3_000, websiteIds: null }),
    ];
    await ctx.db.transaction(async (s) => {
      for (const record of [older, newer, all]) await s.oauth.insertGrant(record);
    });
    expect((await ctx.db.read((s) => s.oauth.activeGrantsOfUser(userId))).map((g) => g.id)).toEqual([
      all.id,
      newer.id,
      older.id,
    ]);
    expect((await ctx.db.read((s) => s.oauth.getGrant(all.id)))!.websiteIds).toBeNull();
    await ctx.db.transaction((s) => s.oauth.touchGrant(older.id, 10_000, 60_000));
    await ctx.db.transaction((s) => s.oauth.touchGrant(older.id, 20_000, 60_000));
    expect((await ctx.db.read((s) => s.oauth.getGrant(older.id)))!.lastUsedAt).toBe(10_000);
    await ctx.db.transaction((s) => s.oauth.touchGrant(older.id, 80_000, 60_000));
    expect((await ctx.db.read((s) => s.oauth.getGrant(older.id)))!.lastUsedAt).toBe(80_000);
    await ctx.db.transaction((s) => s.oauth.revokeGrant(newer.id, 7_000));
    expect((await ctx.db.read((s) => s.oauth.activeGrantsOfUser(userId))).map((g) => g.id)).toEqual([
      all.id,
      older.id,
    ]);
  });

  it("consumes a code and a refresh token exactly once", async () => {
    const code: OAuthCodeRecord = {
      id: hexId(),
      grantId: "g1",
      clientId: "swc_1",
      redirectUri: "http://127.0.0.1/cb",
      codeChallenge: "c".repeat(43),
      resource: "http://localhost/v1/mcp",
      scope: "mcp:read",
      createdAt: 1_000,
      expiresAt: 2_000,
      usedAt: null,
      familyId: null,
    };
    await ctx.db.transaction((s) => s.oauth.insertCode(code));
    expect(await ctx.db.transaction((s) => s.oauth.consumeCode(code.id, 1_500))).toBe(true);
    expect(await ctx.db.transaction((s) => s.oauth.consumeCode(code.id, 1_600))).toBe(false);
    await ctx.db.transaction((s) => s.oauth.setCodeFamily(code.id, "fam"));
    expect(await ctx.db.read((s) => s.oauth.getCode(code.id))).toStrictEqual({
      ...code,
      usedAt: 1_500,
      familyId: "fam",
    });
    const refresh = token("g1", "fam", { kind: "refresh" });
    await ctx.db.transaction((s) => s.oauth.insertToken(refresh));
    expect(await ctx.db.transaction((s) => s.oauth.consumeToken(refresh.id, 1_500))).toBe(true);
    expect(await ctx.db.transaction((s) => s.oauth.consumeToken(refresh.id, 1_500))).toBe(false);
  });

  it("revokes one token, a family, or every token of a grant", async () => {
    const [a1, a2, b1, c1] = [token("g2", "f1"), token("g2", "f1"), token("g2", "f2"), token("g3", "f3")];
    await ctx.db.transaction(async (s) => {
      for (const record of [a1, a2, b1, c1]) await s.oauth.insertToken(record);
    });
    const revokedAt = async (id: string) => (await ctx.db.read((s) => s.oauth.getToken(id)))!.revokedAt;
    await ctx.db.transaction((s) => s.oauth.revokeToken(c1.id, 3_000));
    await ctx.db.transaction((s) => s.oauth.revokeToken(c1.id, 4_000));
    expect(await revokedAt(c1.id)).toBe(3_000);
    await ctx.db.transaction((s) => s.oauth.revokeFamily("f1", 5_000));
    expect([await revokedAt(a1.id), await revokedAt(a2.id), await revokedAt(b1.id)]).toEqual([
      5_000,
      5_000,
      null,
    ]);
    await ctx.db.transaction((s) => s.oauth.revokeTokensOfGrant("g2", 6_000));
    expect([await revokedAt(a1.id), await revokedAt(b1.id)]).toEqual([5_000, 6_000]);
  });
});
