import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { ApiError } from "../../src/kernel/errors.ts";
import { newId } from "../../src/kernel/ids.ts";
import { fields } from "../../src/kernel/schemas.ts";
import {
  feedbackCategories,
  MAX_FEEDBACK_CHARS,
  takeFeedbackToken,
} from "../../src/services/feedback/feedback.ts";
import { feedbackGroup } from "./group.ts";

export default defineTool({
  operationId: "feedback.submit",
  group: feedbackGroup,
  title: "Send product feedback",
  description:
    "Sends feedback about this product (missing feature, confusing error, wrong docs) to the server's operators, optionally naming the website, tool and request. Returns its id. A few per hour. Then carry on; documentation_search may help.",
  input: z
    .object({
      message: z.string().trim().min(1).max(MAX_FEEDBACK_CHARS).describe("What happened or what you need."),
      category: z.enum(feedbackCategories).optional(),
      organizationId: fields
        .organizationId()
        .optional()
        .describe("Omit when the credential reaches one organization."),
      websiteId: fields.websiteId().optional(),
      operationId: z
        .string()
        .min(1)
        .max(100)
        .regex(/^[A-Za-z0-9_.]+$/)
        .optional()
        .describe("The tool it is about, e.g. websites_create."),
      requestId: z
        .string()
        .min(1)
        .max(100)
        .regex(/^[A-Za-z0-9_-]+$/)
        .optional()
        .describe("X-Request-Id of a request it is about."),
    })
    .strict(),
  output: z.object({ id: z.string(), createdAt: fields.timestamp() }),
  annotations: presets.create,
  scope: { websiteId: "websiteId", organizationId: "organizationId" },
  http: { method: "POST", path: "/feedback" },
  auditTarget: (_input, output) => ({ type: "feedback", id: output.id }),
  async prepare(_input, ctx) {
    await takeFeedbackToken(ctx.platform, ctx.principal);
  },
  async handler(input, ctx) {
    let organizationId = ctx.access.resolved.organizationId;
    if (!organizationId) {
      const reachable = [...new Set(ctx.principal.grants.map((grant) => grant.organizationId))];
      if (reachable.length !== 1) {
        throw new ApiError(
          "validation",
          `organizationId: required because this credential reaches ${reachable.length} organizations.`,
          { suggestion: "Call {{organizations.list}} and pass one organization's id." },
        );
      }
      organizationId = (await ctx.access.organization(reachable[0]!)).id;
    }
    const id = newId();
    await ctx.stores.feedback.insert({
      id,
      organizationId,
      websiteId: input.websiteId ?? null,
      category: input.category ?? null,
      message: input.message,
      operationId: input.operationId ?? null,
      requestId: input.requestId ?? null,
      principalType: ctx.principal.type,
      principalId: ctx.principal.id,
      principalLabel: ctx.principal.label,
      createdAt: ctx.now,
    });
    return { id, createdAt: new Date(ctx.now).toISOString() };
  },
});
