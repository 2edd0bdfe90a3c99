import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { decodeCursor, page } from "../../src/kernel/cursor.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields, listOf } from "../../src/kernel/schemas.ts";
import { projectDeployment } from "../../src/services/publishing/deployments.ts";
import { publishingGroup } from "./group.ts";
import { deployment } from "./schemas.ts";

export default defineTool({
  operationId: "websiteSourceCode.deployments.list",
  group: publishingGroup,
  title: "List deployments",
  description:
    "Lists the website's deployments (immutable built versions), newest first, with pages, source hash, creator and published. Roll back with website_source_code_published_rollback.",
  input: z.object({ websiteId: fields.websiteId(), cursor: fields.cursor(), limit: fields.limit() }).strict(),
  output: listOf(deployment),
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websiteSourceCode/deployments" },
  async handler(input, ctx) {
    const publishedId = await ctx.stores.deployments.publishedId(input.websiteId);
    const rows = await ctx.stores.deployments.list(input.websiteId, {
      after: input.cursor ? decodeCursor(input.cursor) : undefined,
      limit: input.limit + 1,
    });
    return page(
      rows,
      input.limit,
      (row) => row.createdAt,
      (row) => projectDeployment(row, publishedId),
    );
  },
});
