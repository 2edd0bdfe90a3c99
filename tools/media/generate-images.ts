import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { recordUpload, requireWebsite } from "../../src/services/assets/upload.ts";
import { CREDITS_PER_IMAGE, releaseAiCredits, settleAiCredits } from "../../src/services/media/credits.ts";
import { prepareGeneration } from "../../src/services/media/generate.ts";
import { asset, assetId } from "../assets/schemas.ts";
import { mediaGroup } from "./group.ts";

const side = (what: string) =>
  z.number().int().min(256).max(2048).default(1024).describe(`${what} of each image in pixels (256-2048).`);

export default defineTool({
  operationId: "media.generateImages",
  group: mediaGroup,
  title: "Generate images",
  description: `Generates images for the website from a prompt and optional reference images (assets of this website, as style or subject references) and stores each as an asset in the "generated" folder, with its prompt, references, provider and model recorded. Each image costs ${CREDITS_PER_IMAGE} AI credit (what is left shows on the billing page of the dashboard, for the organization owner). Check \`placeholder\`: without a configured image model the offline provider returns honest placeholders that show the references and the prompt, not real images. Next: assets_update to set alt text, then use the asset URLs in the site.`,
  input: z
    .object({
      websiteId: fields.websiteId(),
      prompt: z.string().trim().min(3).max(4000).describe("What the images should show, in words."),
      referenceAssetIds: z
        .array(assetId())
        .max(4)
        .default([])
        .describe("Up to 4 image assets of this website to guide style or subject (from assets_list)."),
      width: side("Width"),
      height: side("Height"),
      count: z.number().int().min(1).max(4).default(1).describe("How many images (1-4)."),
    })
    .strict(),
  output: z.object({
    provider: z.string().describe('Who made the images: "offline" (placeholders) or "openai".'),
    model: z.string().describe("The model that made them."),
    placeholder: z
      .boolean()
      .describe("True when the images are placeholders, not the output of an image model."),
    note: z.string().describe("What the images are, in words."),
    creditsSpent: z.number().describe("AI credits this call spent."),
    images: z.array(
      z.object({
        asset,
        prompt: z.string(),
        referenceAssetIds: z.array(z.string()),
      }),
    ),
  }),
  annotations: presets.createOpenWorld,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/websites/{websiteId}/media/images" },
  auditTarget: (_input, output) => ({ type: "asset", id: output.images[0]?.asset.id }),
  mcpImages: (output) =>
    output.images
      .slice(0, 1)
      .map((image) => ({ sha256: image.asset.sha256, mimeType: image.asset.contentType })),
  prepare: (input, ctx) => prepareGeneration(ctx, input),
  abandon: async (prepared, ctx) => {
    await releaseAiCredits(ctx.platform.db, prepared.organizationId, ctx.now, prepared.reservationId);
  },
  async handler(input, ctx) {
    const { uploads, provider, model, placeholder, note, credits, reservationId, organizationId } =
      ctx.prepared;
    await requireWebsite(ctx.stores, input.websiteId);
    await settleAiCredits(ctx.stores, organizationId, ctx.now, {
      reservationId,
      spent: credits,
      reason: "media.generateImages",
      websiteId: input.websiteId,
      prompt: input.prompt,
      images: uploads.length,
    });
    const images = [];
    for (const upload of uploads) {
      const stored = await recordUpload(ctx, upload, {
        websiteId: input.websiteId,
        folder: "generated",
        alt: input.prompt.slice(0, 300),
      });
      await ctx.stores.assets.insertGeneration({
        assetId: stored.id,
        prompt: input.prompt,
        references: input.referenceAssetIds,
        provider,
        model,
        createdAt: ctx.now,
      });
      images.push({ asset: stored, prompt: input.prompt, referenceAssetIds: input.referenceAssetIds });
    }
    return { provider, model, placeholder, note, creditsSpent: credits, images };
  },
});
