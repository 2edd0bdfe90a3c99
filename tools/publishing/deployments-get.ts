import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { deploymentOf, projectDeployment } from "../../src/services/publishing/deployments.ts";
import { publishingGroup } from "./group.ts";
import { deployment, deploymentId } from "./schemas.ts";

export default defineTool({
  operationId: "websiteSourceCode.deployments.get",
  group: publishingGroup,
  title: "Get a deployment",
  description:
    "Returns one deployment: status, who built it and when, source hash, pages and published. Compare it with the draft with website_source_code_files_diff.",
  input: z.object({ websiteId: fields.websiteId(), deploymentId }).strict(),
  output: deployment,
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websiteSourceCode/deployments/{deploymentId}" },
  async handler(input, ctx) {
    const record = await deploymentOf(ctx.stores, input.websiteId, input.deploymentId);
    return projectDeployment(record, await ctx.stores.deployments.publishedId(input.websiteId));
  },
});
