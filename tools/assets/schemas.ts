import { z } from "zod";
import { fields } from "../../src/kernel/schemas.ts";
import { ASSET_TYPES } from "../../src/services/assets/ingest.ts";

export const assetId = () => fields.id("asset").describe("From assets_list.");

export const folder = () =>
  z
    .string()
    .max(200)
    .regex(
      /^$|^[A-Za-z0-9 _.-]+(\/[A-Za-z0-9 _.-]+)*$/,
      "segments of letters, digits, space, _ . - joined by /",
    )
    .describe('"" (root) or e.g. blog/2026.');

export const assetName = () =>
  z
    .string()
    .min(1)
    .max(200)
    .regex(/^[^/\\\p{Cc}]+$/u, "a file name without slashes or control characters")
    .describe("File name, the url's last segment.");

export const alt = () => z.string().max(1000).describe("Image alt text; empty when decorative.");

export const asset = z.object({
  id: fields.id("asset"),
  websiteId: fields.websiteId(),
  name: z.string(),
  folder: z.string(),
  alt: z.string(),
  contentType: z
    .string()
    .describe(
      `Found from the bytes when uploaded, never taken from the client: one of ${ASSET_TYPES.join(", ")}.`,
    ),
  size: z.number().int().describe("Size in bytes."),
  width: z.number().int().nullable().describe("Width in pixels (images; null otherwise)."),
  height: z.number().int().nullable().describe("Height in pixels (images; null otherwise)."),
  sha256: z.string().describe("SHA-256 of the bytes; part of the URL, so a new version has a new URL."),
  path: z.string().describe("Path on the website's host: /_assets/<sha256>/<name>."),
  url: z
    .string()
    .describe(
      "Public URL, cached for a year. Images take ?w=<width>&format=avif|webp|jpeg|png&q=<quality> for resized variants.",
    ),
  createdAt: fields.timestamp(),
  updatedAt: fields.timestamp(),
});

export const usage = z.object({
  pages: z
    .array(z.object({ path: z.string().describe("Path of a live page or file that names the asset's URL.") }))
    .describe("Files of the live deployment whose text names the asset."),
  cmsItems: z
    .array(
      z.object({
        collectionId: z.string(),
        itemId: z.string(),
        fieldKey: z.string(),
        state: z.enum(["draft", "published"]),
      }),
    )
    .describe("CMS items whose draft or published values name the asset (by id or URL)."),
});
