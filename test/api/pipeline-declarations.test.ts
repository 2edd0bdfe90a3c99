import { expect, it } from "vitest";
import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { callTool } from "../../src/kernel/pipeline.ts";
import { organizationsGroup } from "../../tools/organizations/group.ts";
import { describeMatrix } from "../support/matrix.ts";

// The pipeline acts on what a tool declares (its scope fields, its idempotency), never on field names.
describeMatrix(
  "pipeline declarations",
  (ctx) => {
    const base = {
      group: organizationsGroup,
      title: "probe",
      description: "probe",
      output: z.object({ id: z.string() }),
      access: "content_editor",
      http: { method: "POST", path: "/probe" },
    } as const;
    const internal = (principal = ctx.t.local.principal) => ({
      principal,
      transport: "internal" as const,
      requestId: "req_probe",
    });

    it("scope-checks the declared field, whatever its name, and audits under what it resolved", async () => {
      const probe = defineTool({
        ...base,
        operationId: "probe.touch",
        input: z.object({ site: z.string() }).strict(),
        annotations: presets.update,
        scope: { websiteId: "site" },
        handler: async (input) => ({ id: input.site }),
      });
      const own = await ctx.t.createWebsite("Declared scope");
      const other = await ctx.t.createOrganization("Elsewhere");
      const theirs = await ctx.t.call(
        "websites.create",
        { name: "Theirs", organizationId: other.organization.id },
        other.principal,
      );
      await expect(callTool(ctx.t.platform, probe, { site: theirs.id }, internal())).rejects.toMatchObject({
        kind: "not_found",
      });
      await callTool(ctx.t.platform, probe, { site: own.id }, internal());
      const entries = await ctx.t.platform.db.read((s) =>
        s.audit.list({ organizationId: ctx.t.local.organization.id, operationId: "probe.touch", limit: 10 }),
      );
      expect(entries.map((e) => [e.outcome, e.websiteId])).toEqual([["success", own.id]]);
    });

    it("fails a mutation that resolves no organization, and commits nothing of it", async () => {
      const probe = defineTool({
        ...base,
        operationId: "probe.rename",
        access: "personal",
        input: z.object({ name: z.string() }).strict(),
        annotations: presets.update,
        async handler(input, hctx) {
          await hctx.stores.organizations.update(ctx.t.local.organization.id, {
            name: input.name,
            updatedAt: hctx.now,
          });
          return { id: ctx.t.local.organization.id };
        },
      });
      const before = await ctx.t.platform.db.read((s) => s.organizations.get(ctx.t.local.organization.id));
      const errors: string[] = [];
      const { log } = ctx.t.platform;
      ctx.t.platform.log = { ...log, error: (message: string) => void errors.push(message) };
      try {
        await expect(
          callTool(ctx.t.platform, probe, { name: "Unattributed" }, internal()),
        ).rejects.toMatchObject({ kind: "internal" });
      } finally {
        ctx.t.platform.log = log;
      }
      expect(errors).toEqual([expect.stringMatching(/probe\.rename failed/)]);
      const after = await ctx.t.platform.db.read((s) => s.organizations.get(ctx.t.local.organization.id));
      expect(after?.name).toBe(before?.name);
    });

    it("replays by idempotencyKey only for a tool that declares idempotency", async () => {
      let runs = 0;
      const probe = defineTool({
        ...base,
        operationId: "probe.count",
        input: z.object({ organizationId: z.string(), idempotencyKey: z.string().optional() }).strict(),
        annotations: presets.create,
        scope: { organizationId: "organizationId" },
        idempotency: true,
        handler: async () => ({ id: `run_${++runs}` }),
      });
      const input = { organizationId: ctx.t.local.organization.id, idempotencyKey: "probe-key-1" };
      const first = await callTool(ctx.t.platform, probe, input, internal());
      expect(await callTool(ctx.t.platform, probe, input, internal())).toEqual(first);
      expect(runs).toBe(1);
      await callTool(ctx.t.platform, probe, { organizationId: input.organizationId }, internal());
      expect(runs).toBe(2);
    });
  },
  { server: false },
);
