import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { cursorList } from "../../src/kernel/cursor.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { projectDeployment } from "../../src/services/publishing/deployments.ts";
import { publishingGroup } from "./group.ts";
import { deployment } from "./schemas.ts";

export default defineTool({
  operationId: "websiteSourceCode.deployments.list",
  group: publishingGroup,
  title: "List deployments",
  description:
    "Lists the website's deployments (immutable built versions), newest first, with pages, source hash, creator and published. Roll back with website_source_code_published_rollback.",
  input: z.object({ websiteId: fields.websiteId(), ...cursorList.input() }).strict(),
  output: cursorList.output(deployment),
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websiteSourceCode/deployments" },
  async handler(input, ctx) {
    const publishedId = await ctx.stores.deployments.publishedId(input.websiteId);
    const rows = await ctx.stores.deployments.list(input.websiteId, cursorList.request(input));
    return cursorList.page(rows, input, (row) => projectDeployment(row, publishedId));
  },
});
