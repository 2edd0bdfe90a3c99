import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { readCreditUse } from "../../src/services/media/credit-use.ts";
import { mediaGroup } from "./group.ts";

const split = {
  credits: z.number().describe("AI credits spent."),
  fromIncluded: z.number().describe("Of those, from the monthly allowance."),
  fromGrants: z.number().describe("Of those, from credits granted by support."),
  fromPrepaid: z.number().describe("Of those, from the prepaid usage balance."),
};

const iso = (ms: number) => new Date(ms).toISOString();

export default defineTool({
  operationId: "media.creditUse.get",
  group: mediaGroup,
  title: "Get AI credit use by generation",
  description:
    "Returns what the organization's image generations spent in AI credits: totals for the current monthly credit period (generations, images, credits, and how many came from the allowance, support grants and the prepaid balance) and the most recent generations, newest first, each with its time, website, prompt excerpt, images and credits. What is left shows on the billing page of the dashboard (organization owner).",
  input: z
    .object({
      organizationId: fields.organizationId(),
      limit: z
        .number()
        .int()
        .min(1)
        .max(100)
        .default(20)
        .describe("Most recent generations to list (1-100)."),
    })
    .strict(),
  output: z.object({
    period: z
      .object({ start: fields.timestamp(), end: fields.timestamp() })
      .describe("The monthly credit period the allowance resets on."),
    totals: z.object({
      generations: z.number().int().describe("Calls that produced images this period."),
      images: z.number().int().describe("Images generated this period."),
      ...split,
    }),
    recent: z.array(
      z.object({
        at: fields.timestamp(),
        websiteId: fields.websiteId().nullable(),
        websiteName: z.string().nullable().describe("Null when the website was deleted since."),
        prompt: z.string().describe("The prompt's first 120 characters."),
        images: z.number().int(),
        ...split,
      }),
    ),
  }),
  access: "admin",
  cost: "standard",
  annotations: presets.read,
  scope: { organizationId: "organizationId" },
  http: { method: "GET", path: "/media/credit-use" },
  async handler(input, ctx) {
    const report = await readCreditUse(ctx.stores, input.organizationId, ctx.now, input.limit);
    return {
      period: { start: iso(report.period.start), end: iso(report.period.end) },
      totals: report.totals,
      recent: report.recent.map((use) => ({ ...use, at: iso(use.at) })),
    };
  },
});
