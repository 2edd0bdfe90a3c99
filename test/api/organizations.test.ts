import { expect, it } from "vitest";
import type { Grant, Principal } from "../../src/kernel/principal.ts";
import { describeMatrix } from "../support/matrix.ts";

describeMatrix(
  "organizations",
  (ctx) => {
    it("pages a user's organizations oldest first with opaque cursors", async () => {
      const orgs = [];
      for (let i = 0; i < 5; i++) orgs.push(await ctx.t.createOrganization(`Org ${i}`));
      const grants: Grant[] = orgs.map((o) => ({ organizationId: o.organization.id, role: "owner" }));
      const principal: Principal = { ...orgs[0]!.principal, grants };
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await ctx.t.call(
          "organizations.list",
          { limit: 2, ...(cursor ? { cursor } : {}) },
          principal,
        );
        seen.push(...page.items.map((o: { id: string }) => o.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      const oldestFirst = orgs
        .map((o) => o.organization)
        .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1))
        .map((o) => o.id);
      expect(seen).toEqual(oldestFirst);
      await expect(
        ctx.t.call("organizations.list", { cursor: "not-a-cursor" }, principal),
      ).rejects.toMatchObject({
        kind: "validation",
        message: expect.stringMatching(/^cursor/),
      });
    });

    it("gets an organization with the caller's role", async () => {
      const res = await ctx.request("GET", `/organizations/${ctx.t.local.organization.id}`);
      expect(res.body).toMatchObject({
        id: ctx.t.local.organization.id,
        role: "admin",
        access: "organization",
      });
    });
  },
  { server: false },
);
