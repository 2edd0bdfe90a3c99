import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { cursorList } from "../../src/kernel/cursor.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { projectDomain } from "../../src/services/domains/domains.ts";
import { domainsGroup } from "./group.ts";
import { domain } from "./schemas.ts";

export default defineTool({
  operationId: "domains.list",
  group: domainsGroup,
  title: "List a website's custom domains",
  description:
    "Lists the website's custom domains oldest first with status, primary, served and DNS records. Details of one: domains_get.",
  input: z.object({ websiteId: fields.websiteId(), ...cursorList.input() }).strict(),
  output: cursorList.output(domain),
  access: "content_editor",
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websites/{websiteId}/domains" },
  async handler(input, ctx) {
    const rows = await ctx.stores.domains.list(input.websiteId, cursorList.request(input));
    const all = await ctx.stores.domains.ofWebsite(input.websiteId);
    const ownerOf = (id: string | null) => all.find((d) => d.id === id);
    const listed = cursorList.page(rows, input, (row) =>
      projectDomain(ctx.platform.config, row, ownerOf(row.pairedWithId) ?? row, ctx.now),
    );
    return { ...listed, items: await Promise.all(listed.items) };
  },
});
