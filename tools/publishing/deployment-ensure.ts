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
    "Returns the deployment built from the website's current draft, building it only when none exists yet (reused: true when it existed). It does not change what the live site serves: publish that version with website_source_code_head_publish (which then reuses it without building), or later with website_source_code_published_rollback and its id. A build failure fails with kind validation and details listing every source error as {file, line, column, message}; fix the files with website_source_code_files_write and call it again. Needs no edit lease. Uses the expensive rate-limit bucket.",
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
