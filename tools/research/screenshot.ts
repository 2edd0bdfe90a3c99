import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { recordUpload } from "../../src/services/assets/upload.ts";
import {
  DEVICE_WIDTHS,
  MAX_SCREENSHOT_HEIGHT,
  takeScreenshots,
} from "../../src/services/research/screenshot.ts";
import { asset } from "../assets/schemas.ts";
import { researchGroup } from "./group.ts";
import { pageUrl, waitUntil } from "./schemas.ts";

const width = z.union([
  z.enum(Object.keys(DEVICE_WIDTHS) as [keyof typeof DEVICE_WIDTHS]),
  z.number().int().min(240).max(2560),
]);

export default defineTool({
  operationId: "research.screenshot",
  group: researchGroup,
  title: "Screenshot a web page",
  description: `Opens a public web page in a real browser and screenshots it at each width (mobile ${DEVICE_WIDTHS.mobile}, tablet ${DEVICE_WIDTHS.tablet}, desktop ${DEVICE_WIDTHS.desktop}, or a number of CSS pixels), the whole page (cut at ${MAX_SCREENSHOT_HEIGHT} px) or the first screen. Each picture is stored as an asset of the website; over MCP the pictures also come back as images to look at. Call research_measure for fonts, colours and speed, research_read_business for a business's details.`,
  input: z
    .object({
      websiteId: fields.websiteId(),
      url: pageUrl(),
      widths: z
        .array(width)
        .min(1)
        .max(4)
        .default(["desktop"])
        .describe('Widths to capture: "mobile", "tablet", "desktop" or CSS pixels (240-2560).'),
      fullPage: z.boolean().default(true).describe("The whole page (true) or only the first screen (false)."),
      format: z.enum(["webp", "png"]).default("webp").describe("Image format of the stored screenshots."),
      waitUntil: waitUntil(),
    })
    .strict(),
  output: z.object({
    url: z.string().describe("The URL asked for."),
    finalUrl: z.string().describe("Where the page ended up after redirects."),
    status: z.number().int().nullable().describe("HTTP status of the page."),
    title: z.string(),
    screenshots: z.array(
      z.object({
        width: z.number().int(),
        fullPage: z.boolean(),
        truncated: z.boolean().describe(`True when the page was taller than ${MAX_SCREENSHOT_HEIGHT} px.`),
        asset,
      }),
    ),
  }),
  annotations: presets.createOpenWorld,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/websites/{websiteId}/research/screenshots" },
  auditTarget: (_input, output) => ({ type: "asset", id: output.screenshots[0]?.asset.id }),
  mcpImages: (output) =>
    output.screenshots.map((shot) => ({ sha256: shot.asset.sha256, mimeType: shot.asset.contentType })),
  prepare: (input, ctx) => takeScreenshots(ctx, ctx.resolved.organizationId!, input),
  async handler(input, ctx) {
    const screenshots = [];
    for (const shot of ctx.prepared.shots) {
      const stored = await recordUpload(ctx, shot.upload, { websiteId: input.websiteId, folder: "research" });
      screenshots.push({
        width: shot.width,
        fullPage: shot.fullPage,
        truncated: shot.truncated,
        asset: stored,
      });
    }
    const { finalUrl, status, title } = ctx.prepared;
    return { url: input.url, finalUrl, status, title, screenshots };
  },
});
