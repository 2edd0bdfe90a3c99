import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { afterAll, expect, it } from "vitest";
import { freeAccount } from "../../src/services/billing/account.ts";
import { FREE_MONTHLY_AI_CREDITS } from "../../src/services/billing/prices.ts";
import { describeMatrix } from "../support/matrix.ts";

/** What the loopback image API received: path, authorization header and JSON body. */
const received: { path: string; authorization: string; body: any }[] = [];

/** Requests whose prompt contains "hold" wait here until `openGate` (to look at the billing state meanwhile). */
let held: (() => void)[] = [];
let gateOpen = true;
const openGate = () => {
  gateOpen = true;
  for (const release of held.splice(0)) release();
};

const readBody = async (request: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
};

// A loopback server speaking the OpenAI Images wire format: POST /v1/images/generations, data[].b64_json,
// errors as { error: { message, type, param, code } }.
const api = createServer(async (request, response) => {
  const body = await readBody(request);
  received.push({ path: request.url ?? "", authorization: request.headers.authorization ?? "", body });
  if (body.prompt.includes("hold") && !gateOpen) await new Promise<void>((resolve) => held.push(resolve));
  const send = (status: number, json: unknown) => {
    response.writeHead(status, { "content-type": "application/json" });
    response.end(JSON.stringify(json));
  };
  if (body.prompt.includes("forbidden-content")) {
    return send(400, {
      error: {
        message: "Your request was rejected by the safety system.",
        type: "image_generation_user_error",
        param: null,
        code: "moderation_blocked",
      },
    });
  }
  if (body.prompt.includes("server-down")) {
    return send(500, {
      error: { message: "The server had an error.", type: "server_error", param: null, code: null },
    });
  }
  const [width, height] = String(body.size).split("x").map(Number);
  const image = await sharp({
    create: { width: width!, height: height!, channels: 3, background: "#22aa44" },
  })
    .png()
    .toBuffer();
  send(200, {
    created: 1_700_000_000,
    data: Array.from({ length: body.n }, () => ({ b64_json: image.toString("base64") })),
  });
});
await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
const apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}/v1`;
afterAll(() => new Promise<void>((resolve) => api.close(() => resolve())));

describeMatrix(
  "media generation through an image model API (loopback server, OpenAI Images format)",
  (ctx) => {
    let n = 0;
    const generate = async (prompt: string, extra: Record<string, unknown> = {}) => {
      const website = await ctx.t.createWebsite(`media-api-${ctx.mode}-${++n}`);
      const res = await ctx.request("POST", `/websites/${website.id}/media/images`, {
        body: { prompt, width: 512, height: 256, ...extra },
      });
      return { res, website };
    };
    const remaining = async () =>
      (await ctx.t.call("billing.state.get", { organizationId: ctx.t.local.organization.id })).meters
        .ai_credits.remaining;

    it("sends the documented request and stores the answer's images as assets", async () => {
      const before = await remaining();
      received.length = 0;
      const { res, website } = await generate("A modern dental clinic reception", { count: 2 });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(received).toEqual([
        {
          path: "/v1/images/generations",
          authorization: "Bearer test-image-key",
          body: {
            model: "gpt-image-1",
            prompt: "A modern dental clinic reception",
            n: 2,
            size: "512x256",
            response_format: "b64_json",
          },
        },
      ]);
      expect(res.body).toMatchObject({
        provider: "openai",
        model: "gpt-image-1",
        placeholder: false,
        creditsSpent: 2,
      });
      expect(res.body.images.map((i: any) => [i.asset.width, i.asset.height, i.asset.folder])).toEqual([
        [512, 256, "generated"],
        [512, 256, "generated"],
      ]);
      const generation = await ctx.t.platform.db.read((s) =>
        s.assets.getGeneration(res.body.images[0].asset.id),
      );
      expect(generation).toMatchObject({ provider: "openai", model: "gpt-image-1", references: [] });
      expect(await remaining()).toBe(before - 2);
      const listed = await ctx.request("GET", `/websites/${website.id}/assets`);
      expect(listed.body.items).toHaveLength(2);
    });

    it("maps the API's error body to clear errors; nothing is stored or spent", async () => {
      const before = await remaining();
      const refused = await generate("forbidden-content please");
      expect(refused.res.status).toBe(400);
      expect(refused.res.body.kind).toBe("validation");
      expect(refused.res.body.message).toContain(
        "prompt: The image model API answered 400 (moderation_blocked)",
      );
      expect(refused.res.body.message).toContain("rejected by the safety system");
      const down = await generate("server-down now");
      expect(down.res.status).toBe(502);
      expect(down.res.body).toMatchObject({ kind: "internal" });
      expect(down.res.body.message).toContain("answered 500");
      expect(JSON.stringify(down.res.body)).not.toContain("test-image-key");
      for (const { website } of [refused, down]) {
        expect((await ctx.request("GET", `/websites/${website.id}/assets`)).body.items).toEqual([]);
      }
      expect(await remaining()).toBe(before);
    });

    const setLeft = (left: number) =>
      ctx.t.platform.db.transaction((s) =>
        s.billing.putAccount({
          ...freeAccount(ctx.t.local.organization.id, Date.now()),
          aiCreditsUsed: FREE_MONTHLY_AI_CREDITS - left,
        }),
      );
    const meter = async () =>
      (await ctx.t.call("billing.state.get", { organizationId: ctx.t.local.organization.id })).meters
        .ai_credits;
    const account = () => ctx.t.platform.db.read((s) => s.billing.getAccount(ctx.t.local.organization.id));
    const until = async (condition: () => boolean) => {
      while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
    };

    it("reserves credits before calling the API: losers of a race never reach it, winners settle", async () => {
      await setLeft(3);
      received.length = 0;
      gateOpen = false;
      held = [];
      const website = await ctx.t.createWebsite(`media-race-${ctx.mode}`);
      const calls = Array.from({ length: 10 }, (_, i) =>
        ctx.request("POST", `/websites/${website.id}/media/images`, {
          body: { prompt: `hold race ${i}`, width: 256, height: 256 },
        }),
      );
      // the organization's two generation slots are busy at the API: their credits are held, not yet spent
      await until(() => held.length === 2);
      expect(await meter()).toMatchObject({ used: FREE_MONTHLY_AI_CREDITS - 3, remaining: 1 });
      expect((await account())?.aiCreditsReserved).toBe(2);
      openGate();
      const statuses = (await Promise.all(calls)).map((r) => r.status).sort();
      expect(statuses).toEqual([200, 200, 200, 403, 403, 403, 403, 403, 403, 403]);
      expect(received).toHaveLength(3);
      expect(await meter()).toMatchObject({ used: FREE_MONTHLY_AI_CREDITS, remaining: 0 });
      expect((await account())?.aiCreditsReserved).toBe(0);
    });

    it("releases the reservation when the call fails after the API answered (website deleted meanwhile)", async () => {
      await setLeft(5);
      gateOpen = false;
      held = [];
      const website = await ctx.t.createWebsite(`media-gone-${ctx.mode}`);
      const call = ctx.request("POST", `/websites/${website.id}/media/images`, {
        body: { prompt: "hold while deleted", width: 256, height: 256, count: 2 },
      });
      await until(() => held.length === 1);
      expect((await meter()).remaining).toBe(3);
      await ctx.t.call("websites.delete", { websiteId: website.id });
      openGate();
      const res = await call;
      expect(res.status, JSON.stringify(res.body)).toBe(404);
      expect(await meter()).toMatchObject({ used: FREE_MONTHLY_AI_CREDITS - 5, remaining: 5 });
      expect((await account())?.aiCreditsReserved).toBe(0);
    });
  },
  {
    config: {
      media: {
        provider: "openai",
        apiUrl,
        apiKey: "test-image-key",
        model: "gpt-image-1",
        timeoutMs: 10_000,
      },
    },
  },
);

// A port nothing listens on: taken, then released.
const closed = createServer();
await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
const closedPort = (closed.address() as AddressInfo).port;
await new Promise<void>((resolve) => closed.close(() => resolve()));

describeMatrix(
  "media generation when the image model API cannot be reached",
  (ctx) => {
    it("answers internal (502) naming the cause; nothing is stored or spent", async () => {
      const organizationId = ctx.t.local.organization.id;
      const before = (await ctx.t.call("billing.state.get", { organizationId })).meters.ai_credits.remaining;
      const website = await ctx.t.createWebsite(`media-unreachable-${ctx.dialect}`);
      const res = await ctx.request("POST", `/websites/${website.id}/media/images`, {
        body: { prompt: "a quiet harbour" },
      });
      expect(res.status).toBe(502);
      expect(res.body.kind).toBe("internal");
      expect(res.body.message).toContain("could not be reached");
      expect(res.body.message).toContain("no credits were used");
      expect((await ctx.request("GET", `/websites/${website.id}/assets`)).body.items).toEqual([]);
      expect((await ctx.t.call("billing.state.get", { organizationId })).meters.ai_credits.remaining).toBe(
        before,
      );
    });
  },
  {
    server: false,
    config: {
      media: {
        provider: "openai",
        apiUrl: `http://127.0.0.1:${closedPort}/v1`,
        apiKey: "test-image-key",
        model: "gpt-image-1",
        timeoutMs: 5_000,
      },
    },
  },
);
