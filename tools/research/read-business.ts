import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { readBusiness } from "../../src/services/research/read.ts";
import { researchGroup } from "./group.ts";
import { pageUrl, waitUntil } from "./schemas.ts";

const SOURCES = ["json-ld", "microdata", "open-graph", "text"] as const;
const field = <T extends z.ZodType>(value: T) =>
  z
    .object({
      value,
      source: z
        .enum(SOURCES)
        .describe("Where it was found: json-ld, microdata, open-graph or the visible text."),
    })
    .nullable();

export default defineTool({
  operationId: "research.readBusiness",
  group: researchGroup,
  title: "Read a business page into a profile",
  description:
    "Opens a business's web page (its home or contact page) in a real browser and reads the business into a profile: name, description, address, phone, email, opening hours, services or menu with prices, price range, social links, logo and photos. Each field says where it came from: schema.org JSON-LD first, microdata second, Open Graph third, the visible text last (least certain); a field no source has is null. Nothing is stored. Next: research_contact_sheet with the photo URLs to look at them, or assets_import_from_url to keep one.",
  input: z.object({ websiteId: fields.websiteId(), url: pageUrl(), waitUntil: waitUntil() }).strict(),
  output: z.object({
    url: z.string(),
    finalUrl: z.string().describe("Where the page ended up after redirects."),
    profile: z.object({
      name: field(z.string()),
      description: field(z.string()),
      address: field(z.string()),
      phone: field(z.string()),
      email: field(z.string()),
      openingHours: field(z.array(z.string())),
      services: field(
        z.array(
          z.object({
            name: z.string(),
            price: z.string().nullable(),
            currency: z.string().nullable(),
            section: z.string().nullable().describe("The menu section or catalogue it is listed under."),
          }),
        ),
      ),
      priceRange: field(z.string()),
      social: field(z.array(z.string())),
      logo: field(z.string()),
      photos: field(z.array(z.string())),
    }),
  }),
  annotations: presets.readOpenWorld,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/websites/{websiteId}/research/business" },
  prepare: (input, ctx) => readBusiness(ctx, ctx.resolved.organizationId!, input),
  handler: async (_input, ctx) => ctx.prepared,
});
