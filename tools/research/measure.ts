import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { measurePage } from "../../src/services/research/read.ts";
import { researchGroup } from "./group.ts";
import { pageUrl, waitUntil } from "./schemas.ts";

const ms = z.number().nullable();
const ranked = z.array(z.object({ value: z.string(), count: z.number().int() }));

export default defineTool({
  operationId: "research.measure",
  group: researchGroup,
  title: "Measure a web page",
  description:
    "Opens a public web page in a real browser at desktop width and measures it: load timings (TTFB, DOMContentLoaded, load, first and largest contentful paint), bytes transferred by resource type and the request count, the largest contentful paint element, the fonts and colours used (computed styles of headings, body text, links and buttons, and the most used values), the heading outline, meta tags (title, description, canonical, Open Graph), links, images without alt text and basic accessibility findings (low contrast text, unlabelled fields, nameless buttons and links). Nothing is stored. Call research_screenshot to see the page.",
  input: z.object({ websiteId: fields.websiteId(), url: pageUrl(), waitUntil: waitUntil() }).strict(),
  output: z.object({
    url: z.string(),
    finalUrl: z.string(),
    status: z.number().int().nullable(),
    requests: z.number().int().describe("Requests the page made (refused ones included)."),
    transferBytes: z.number().int(),
    bytesByType: z
      .record(z.string(), z.number().int())
      .describe("Bytes by resource type (document, image, …)."),
    refusedRequests: z
      .array(z.object({ url: z.string(), reason: z.string() }))
      .describe("Requests refused (private addresses, other schemes, POST)."),
    timings: z
      .object({
        ttfbMs: ms,
        domContentLoadedMs: ms,
        loadMs: ms,
        firstContentfulPaintMs: ms,
        largestContentfulPaintMs: ms,
      })
      .nullable(),
    largestContentfulPaint: z
      .object({
        element: z.string().nullable(),
        text: z.string(),
        url: z.string().nullable(),
        size: z.number(),
      })
      .nullable(),
    styles: z
      .array(
        z.object({
          selector: z.string(),
          fontFamily: z.string(),
          fontSize: z.string(),
          fontWeight: z.string(),
          lineHeight: z.string(),
          color: z.string(),
          backgroundColor: z.string(),
        }),
      )
      .describe("Computed styles of the first h1, h2, h3, body, p, a and button."),
    colours: ranked.describe("Text and background colours by how many elements use them."),
    fonts: ranked.describe("Font families by how many elements use them."),
    outline: z.array(z.object({ level: z.number().int(), text: z.string() })),
    meta: z.object({
      title: z.string(),
      description: z.string().nullable(),
      canonical: z.string().nullable(),
      lang: z.string().nullable(),
      viewport: z.string().nullable(),
      openGraph: z.record(z.string(), z.string()),
    }),
    links: z.object({
      internal: z.number().int(),
      external: z.array(z.object({ href: z.string(), text: z.string() })),
      total: z.number().int(),
    }),
    imagesWithoutAlt: z.array(z.string()),
    accessibility: z.object({
      lowContrast: z.array(z.object({ element: z.string().nullable(), text: z.string(), ratio: z.number() })),
      unlabelledFields: z.array(z.string()),
      namelessControls: z.array(z.string().nullable()),
      missingLang: z.boolean(),
      imagesWithoutAlt: z.number().int(),
    }),
  }),
  annotations: presets.readOpenWorld,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/websites/{websiteId}/research/measurements" },
  prepare: (input, ctx) => measurePage(ctx, ctx.resolved.organizationId!, input),
  handler: async (_input, ctx) => ctx.prepared as never,
});
