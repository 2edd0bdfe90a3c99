import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { projectDeployment, rollbackTo } from "../../src/services/publishing/deployments.ts";
import { websiteUrl } from "../../src/services/websites/websites.ts";
import { publishingGroup } from "./group.ts";
import { deployment, deploymentId, deploymentTarget, previousDeploymentId, url } from "./schemas.ts";

export default defineTool({
  // Not `…rollbackVersion`: its MCP name would pass the 40-character limit of tool names.
  operationId: "websiteSourceCode.published.rollback",
  group: publishingGroup,
  title: "Roll back the live site",
  description:
    "Makes an earlier deployment of the website live at once, without building (ids from website_source_code_deployments_list). The draft is unchanged. Undo with previousDeploymentId; expensive bucket.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      deploymentId: deploymentId.describe("From website_source_code_deployments_list."),
    })
    .strict(),
  output: z.object({ deployment, url, previousDeploymentId }),
  // Idempotent: rolling back to the version already live changes nothing.
  annotations: presets.overwrite,
  cost: "expensive",
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/websiteSourceCode/published/rollback-version" },
  auditTarget: (_input, output) => deploymentTarget(output.deployment.id),
  async handler(input, ctx) {
    const website = await ctx.access.website(input.websiteId);
    const { deployment: record, previousDeploymentId: previous } = await rollbackTo(
      ctx.stores,
      input.websiteId,
      input.deploymentId,
      ctx.now,
    );
    return {
      deployment: projectDeployment(record, record.id),
      url: websiteUrl(ctx.platform.config, website.slug),
      previousDeploymentId: previous,
    };
  },
});
