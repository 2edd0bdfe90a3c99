import sharp from "sharp";
import { expect, it } from "vitest";
import { freeAccount } from "../../src/services/billing/account.ts";
import { FREE_MONTHLY_AI_CREDITS } from "../../src/services/billing/prices.ts";
import { describeMatrix, type MatrixContext } from "../support/matrix.ts";
import { connectMcp, resultJson } from "../support/mcp.ts";

const png = (width: number, height: number, background = "#3366cc") =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

/** Helpers on the local organization (the admin key's): its billing account, grants, state and assets. */
function local(ctx: MatrixContext) {
  const db = () => ctx.t.platform.db;
  const organizationId = () => ctx.t.local.organization.id;
  return {
    /** Sets the billing account: the free plan with `left` of its monthly credits, plus `patch`. */
    setAccount: (left: number, patch: Record<string, unknown> = {}) =>
      db().transaction((s) =>
        s.billing.putAccount({
          ...freeAccount(organizationId(), Date.now()),
          aiCreditsUsed: FREE_MONTHLY_AI_CREDITS - left,
          ...patch,
        }),
      ),
    grant: (id: string, credits: number) =>
      db().transaction((s) =>
        s.billing.insertGrant({
          id,
          organizationId: organizationId(),
          credits,
          remaining: credits,
          expiresAt: null,
          createdAt: Date.now(),
        }),
      ),
    state: () => ctx.t.call("billing.state.get", { organizationId: organizationId() }),
    assets: async (websiteId: string) =>
      (await ctx.request("GET", `/websites/${websiteId}/assets?limit=100`)).body.items as any[],
    generation: (assetId: string) => db().read((s) => s.assets.getGeneration(assetId)),
  };
}

describeMatrix("media generation (offline provider)", (ctx) => {
  let n = 0;
  const org = local(ctx);
  const newSite = () => ctx.t.createWebsite(`media-${ctx.mode}-${++n}`);
  const generate = (websiteId: string, body: Record<string, unknown>) =>
    ctx.request("POST", `/websites/${websiteId}/media/images`, { body });

  it("composes references and prompt into honest placeholders stored as assets, and spends credits", async () => {
    await org.setAccount(50);
    const website = await newSite();
    const ref = await ctx.t.call("assets.upload", {
      websiteId: website.id,
      contentBase64: (await png(64, 64, "#ff0000")).toString("base64"),
      name: "red.png",
    });
    const res = await generate(website.id, {
      prompt: "A sunny bakery storefront with fresh bread",
      referenceAssetIds: [ref.id],
      width: 320,
      height: 256,
      count: 2,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      provider: "offline",
      model: "offline-placeholder",
      placeholder: true,
      creditsSpent: 2,
    });
    expect(res.body.note).toMatch(/placeholder.*not the output of an image model/);
    expect(res.body.images).toHaveLength(2);
    for (const image of res.body.images) {
      expect(image.asset).toMatchObject({
        folder: "generated",
        width: 320,
        height: 256,
        contentType: "image/png",
      });
      expect(image.referenceAssetIds).toEqual([ref.id]);
      expect(await org.generation(image.asset.id)).toMatchObject({
        prompt: "A sunny bakery storefront with fresh bread",
        references: [ref.id],
        provider: "offline",
        model: "offline-placeholder",
      });
    }
    const got = await ctx.request("GET", `/websites/${website.id}/assets/${res.body.images[0].asset.id}`);
    expect(got.body.generation).toEqual({
      prompt: "A sunny bakery storefront with fresh bread",
      referenceAssetIds: [ref.id],
      provider: "offline",
      model: "offline-placeholder",
      placeholder: true,
    });
    expect(
      (await ctx.request("GET", `/websites/${website.id}/assets/${ref.id}`)).body.generation,
    ).toBeUndefined();
    // The reference is composed in: the left edge of the placeholder is reddish.
    const blob = await ctx.t.platform.blobs.get(res.body.images[0].asset.sha256);
    const { data } = await sharp(blob!).extract({ left: 2, top: 250, width: 1, height: 1 }).raw().toBuffer({
      resolveWithObject: true,
    });
    expect(data[0]!).toBeGreaterThan(data[2]!);
    expect((await org.assets(website.id)).length).toBe(3);
    const meter = (await org.state()).meters.ai_credits;
    expect(meter).toMatchObject({ used: FREE_MONTHLY_AI_CREDITS - 48, remaining: 48 });
  });

  it("checks input and scope: bad sizes, foreign websites and references are refused, nothing spent", async () => {
    await org.setAccount(10);
    const website = await newSite();
    const tooMany = await generate(website.id, { prompt: "a cat", count: 5 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.kind).toBe("validation");
    expect(tooMany.body.message).toContain("count");
    const wide = await generate(website.id, { prompt: "a cat", width: 9000 });
    expect(wide.status).toBe(400);
    expect(wide.body.message).toContain("width");

    const stranger = await ctx.t.createOrganization(`media-strangers-${ctx.mode}-${++n}`);
    const theirs = await ctx.t.call(
      "websites.create",
      { name: `theirs-${ctx.mode}-${n}` },
      stranger.principal,
    );
    const theirAsset = await ctx.t.call(
      "assets.upload",
      { websiteId: theirs.id, contentBase64: (await png(8, 8)).toString("base64") },
      stranger.principal,
    );
    expect((await generate(theirs.id, { prompt: "a cat" })).status).toBe(404);
    const foreignRef = await generate(website.id, { prompt: "a cat", referenceAssetIds: [theirAsset.id] });
    expect(foreignRef.status).toBe(404);
    expect(foreignRef.body.message).toContain("referenceAssetIds[0]");
    expect(await org.assets(website.id)).toEqual([]);
    expect((await org.state()).meters.ai_credits.remaining).toBe(10);
  });

  it("spends the allowance, then grants, then prepaid credits; refuses with forbidden when none are left", async () => {
    await org.setAccount(1, { prepaidCredits: 2, prepaidUsed: 0 });
    await org.grant(`grant-${ctx.mode}-${++n}`, 2);
    const website = await newSite();
    const first = await generate(website.id, {
      prompt: "a lighthouse at dusk",
      width: 256,
      height: 256,
      count: 4,
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    let state = await org.state();
    expect(state.meters.ai_credits).toMatchObject({
      remainingIncluded: 0,
      remainingPrepaid: 1,
      remaining: 1,
    });
    expect(state.creditGrants).toEqual([expect.objectContaining({ credits: 2, remaining: 0 })]);
    expect(state.usageBalance).toMatchObject({ used: 1, remaining: 1 });

    const tooMany = await generate(website.id, {
      prompt: "a lighthouse at dusk",
      width: 256,
      height: 256,
      count: 2,
    });
    expect(tooMany.status).toBe(403);
    expect(tooMany.body).toMatchObject({ kind: "forbidden" });
    expect(tooMany.body.message).toContain("needs 2 AI credits");
    expect(tooMany.body.suggestion).toContain("billing.usageTopUp.checkout");
    expect(tooMany.body.suggestion).toContain("billing.aiCreditTier.update");

    await org.setAccount(50, { status: "billing_grace", plan: "pro", interval: "monthly" });
    const grace = await generate(website.id, { prompt: "a lighthouse at dusk", width: 256, height: 256 });
    expect(grace.status).toBe(403);
    expect(grace.body.message).toContain("past due");
    state = await org.state();
    expect(state.meters.ai_credits.remaining).toBe(0);
    expect((await org.assets(website.id)).length).toBe(4);
  });

  it("never spends a credit twice: 10 parallel generations against a balance of 3", async () => {
    await org.setAccount(3);
    const website = await newSite();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        generate(website.id, { prompt: `parallel image ${i}`, width: 256, height: 256 }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 403, 403, 403, 403, 403, 403, 403]);
    expect((await org.assets(website.id)).length).toBe(3);
    expect((await org.state()).meters.ai_credits).toMatchObject({
      used: FREE_MONTHLY_AI_CREDITS,
      remaining: 0,
    });
  });

  it("reports credit use by generation (period totals, recent, sources) and lists generated assets apart", async () => {
    const other = await ctx.t.createOrganization(`media-use-${ctx.mode}`);
    const organizationId = other.organization.id;
    await ctx.t.platform.db.transaction(async (s) => {
      await s.billing.putAccount({
        ...freeAccount(organizationId, Date.now()),
        aiCreditsUsed: FREE_MONTHLY_AI_CREDITS - 1,
        prepaidCredits: 5,
      });
      await s.billing.insertGrant({
        id: `grant-use-${ctx.mode}`,
        organizationId,
        credits: 1,
        remaining: 1,
        expiresAt: null,
        createdAt: Date.now(),
      });
    });
    const keyOf = (role: "admin" | "full_editor") =>
      ctx.t.call(
        "apiKeys.create",
        { organizationId, name: role, access: { kind: "organization", role } },
        other.principal,
      );
    const admin = await keyOf("admin");
    const site = (name: string) => ctx.t.call("websites.create", { name, organizationId }, other.principal);
    const bakery = await site(`Bakery ${ctx.mode}`);
    const florist = await site(`Florist ${ctx.mode}`);
    const upload = await ctx.request("POST", `/websites/${bakery.id}/assets`, {
      key: admin.plaintextKey,
      body: { name: "plain.png", contentBase64: (await png(16, 16)).toString("base64") },
    });
    expect(upload.status).toBe(200);
    const make = async (websiteId: string, prompt: string, count: number) => {
      const res = await ctx.request("POST", `/websites/${websiteId}/media/images`, {
        key: admin.plaintextKey,
        body: { prompt, width: 256, height: 256, count },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    await make(bakery.id, "Fresh sourdough loaves on a wooden counter", 1);
    await new Promise((resolve) => setTimeout(resolve, 5)); // distinct times: the list is newest first
    await make(florist.id, `Tulips ${"in a sunny window ".repeat(12)}`, 3);

    const use = await ctx.request("GET", `/media/credit-use?organizationId=${organizationId}`, {
      key: admin.plaintextKey,
    });
    expect(use.status, JSON.stringify(use.body)).toBe(200);
    expect(use.body.totals).toEqual({
      generations: 2,
      images: 4,
      credits: 4,
      fromIncluded: 1,
      fromGrants: 1,
      fromPrepaid: 2,
    });
    expect(use.body.recent).toEqual([
      expect.objectContaining({
        websiteId: florist.id,
        websiteName: florist.name,
        images: 3,
        credits: 3,
        fromIncluded: 0,
        fromGrants: 1,
        fromPrepaid: 2,
      }),
      expect.objectContaining({
        websiteId: bakery.id,
        websiteName: bakery.name,
        prompt: "Fresh sourdough loaves on a wooden counter",
        images: 1,
        fromIncluded: 1,
      }),
    ]);
    expect(use.body.recent[0].prompt).toHaveLength(120);
    expect(Date.parse(use.body.period.start)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(use.body.period.end)).toBeGreaterThan(Date.now());

    const generated = await ctx.request("GET", `/websites/${bakery.id}/assets?generated=true`, {
      key: admin.plaintextKey,
    });
    expect(generated.body.items.map((a: any) => a.folder)).toEqual(["generated"]);
    const uploads = await ctx.request("GET", `/websites/${bakery.id}/assets?generated=false`, {
      key: admin.plaintextKey,
    });
    expect(uploads.body.items.map((a: any) => a.name)).toEqual(["plain.png"]);

    // A deleted website keeps its use, unnamed; other organizations and lower roles cannot read it.
    await ctx.t.call("websites.delete", { websiteId: bakery.id }, other.principal);
    const after = await ctx.t.call("media.creditUse.get", { organizationId }, other.principal);
    expect(after.recent[1]).toMatchObject({ websiteId: bakery.id, websiteName: null, images: 1 });
    expect(after.totals.images).toBe(4);
    const ours = await ctx.request("GET", `/media/credit-use?organizationId=${organizationId}`);
    expect(ours.status).toBe(403);
    const editor = await keyOf("full_editor");
    const low = await ctx.request("GET", `/media/credit-use?organizationId=${organizationId}`, {
      key: editor.plaintextKey,
    });
    expect(low.status).toBe(403);
    expect(low.body.kind).toBe("forbidden");
  });

  it("over MCP returns the first image as image content", async () => {
    await org.setAccount(5);
    const website = await newSite();
    const client = await connectMcp(ctx, ctx.t.adminKey.plaintextKey, undefined, {
      query: "toolsets=research",
    });
    try {
      const result = await client.callTool({
        name: "media_generate_images",
        arguments: { websiteId: website.id, prompt: "a red bicycle", width: 300, height: 260, count: 2 },
      });
      expect(result.isError, JSON.stringify(result.content).slice(0, 500)).toBeFalsy();
      expect(resultJson(result).images).toHaveLength(2);
      const images = (result.content as any[]).filter((c) => c.type === "image");
      expect(images).toHaveLength(1);
      expect(images[0]).toMatchObject({ type: "image", mimeType: "image/png" });
      const meta = await sharp(Buffer.from(images[0].data, "base64")).metadata();
      expect([meta.width, meta.height]).toEqual([300, 260]);
    } finally {
      await client.close();
    }
  });
});
