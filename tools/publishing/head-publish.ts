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
import { websiteUrl } from "../../src/services/websites/websites.ts";
import { publishingGroup } from "./group.ts";
import { deployment, deploymentTarget, diagnostic, previousDeploymentId, url } from "./schemas.ts";

export default defineTool({
  operationId: "websiteSourceCode.head.publish",
  group: publishingGroup,
  title: "Publish the draft",
  description:
    "Builds the draft and makes it live in one atomic switch (an unchanged draft republishes its deployment: reused). A failed build is a validation error with details {file, line, column, message} and changes nothing. Undo with website_source_code_published_rollback. Expensive.",
  input: z.object({ websiteId: fields.websiteId() }).strict(),
  output: z.object({
    deployment,
    url,
    reused: z
      .boolean()
      .describe(
        "True when the draft was unchanged since an earlier deployment and that one was published again.",
      ),
    previousDeploymentId,
    warnings: z
      .array(diagnostic)
      .describe("Warnings of the build; empty when an existing deployment was reused."),
  }),
  // Idempotent: publishing an unchanged draft again publishes the same deployment (no new version).
  annotations: presets.overwrite,
  cost: "expensive",
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/websiteSourceCode/head/publish" },
  auditTarget: (_input, output) => deploymentTarget(output.deployment.id),
  prepare: (input, ctx) => prepareDeployment(ctx, input.websiteId),
  async handler(input, ctx) {
    const website = await ctx.access.website(input.websiteId);
    const committed = await commitDeployment(ctx.stores, ctx.prepared, ctx.principal, ctx.now, {
      publish: true,
    });
    return {
      deployment: projectDeployment(committed.deployment, committed.publishedId),
      url: websiteUrl(ctx.platform.config, website.slug),
      reused: committed.reused,
      previousDeploymentId: committed.previousDeploymentId,
      warnings: committed.warnings.map(projectDiagnostic),
    };
  },
});
