import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import {
  commitDeployment,
  prepareDeployment,
  projectDeployment,
  projectDiagnostic,
} from "../../src/services/publishing/deployments.ts";
import { publishingGroup } from "./group.ts";
import { deployment, deploymentTarget, diagnostic } from "./schemas.ts";

export default defineTool({
  operationId: "websiteSourceCode.deployment.ensure",
  group: publishingGroup,
  title: "Ensure a deployment of the draft",
  description:
    "Returns the deployment of the current draft, building it only when none exists (reused otherwise); the live site is unchanged. Publish it with website_source_code_head_publish. Expensive.",
  input: z.object({ websiteId: fields.websiteId() }).strict(),
  output: z.object({
    deployment,
    reused: z.boolean().describe("True when a deployment of this draft existed and nothing was built."),
    warnings: z
      .array(diagnostic)
      .describe("Warnings of the build; empty when an existing deployment was reused."),
  }),
  annotations: presets.update,
  cost: "expensive",
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/websiteSourceCode/deployment/ensure" },
  auditTarget: (_input, output) => deploymentTarget(output.deployment.id),
  prepare: (input, ctx) => prepareDeployment(ctx, input.websiteId),
  async handler(_input, ctx) {
    const committed = await commitDeployment(ctx.stores, ctx.prepared, ctx.principal, ctx.now, {
      publish: false,
    });
    return {
      deployment: projectDeployment(committed.deployment, committed.publishedId),
      reused: committed.reused,
      warnings: committed.warnings.map(projectDiagnostic),
    };
  },
});
