import type { PrepareContext } from "../../kernel/context.ts";
import { ApiError } from "../../kernel/errors.ts";
import { type PreparedUpload, prepareUpload } from "../assets/upload.ts";
import { CREDITS_PER_IMAGE, releaseAiCredits, reserveAiCredits } from "./credits.ts";
import { offlineProvider } from "./offline.ts";
import { openAiProvider } from "./openai.ts";
import type { ImageProvider, MediaConfig, ReferenceImage } from "./provider.ts";
import { slotsOf } from "./slots.ts";

/** The provider a platform's configuration names. */
export function providerFor(config: MediaConfig): ImageProvider {
  return config.provider === "openai" ? openAiProvider(config) : offlineProvider;
}

export interface GenerationInput {
  websiteId: string;
  prompt: string;
  referenceAssetIds: string[];
  width: number;
  height: number;
  count: number;
}

/** Generated images checked and stored as blobs, ready to become assets, with how they were made. */
export interface PreparedGeneration {
  uploads: PreparedUpload[];
  provider: string;
  model: string;
  placeholder: boolean;
  note: string;
  /** The reservation taken before the provider ran (settled by the handler, released by `abandon`). */
  reservationId: string;
  /** Credits the produced images cost (at most what was reserved). */
  credits: number;
  organizationId: string;
}

/** Reference images: raster assets of the same website (anything else is `not_found` or `validation`). */
async function loadReferences(ctx: PrepareContext, input: GenerationInput): Promise<ReferenceImage[]> {
  const references: ReferenceImage[] = [];
  for (const [i, assetId] of input.referenceAssetIds.entries()) {
    const asset = await ctx.read((stores) => stores.assets.get(input.websiteId, assetId));
    if (!asset) {
      throw new ApiError(
        "not_found",
        `referenceAssetIds[${i}]: '${assetId}' is not an asset of this website.`,
        {
          suggestion: "Call {{assets.list}} to see the website's assets.",
        },
      );
    }
    if (asset.width === null || asset.contentType === "image/svg+xml") {
      throw new ApiError("validation", `referenceAssetIds[${i}]: '${assetId}' is not a raster image.`, {
        suggestion: "Use JPEG, PNG, WebP, AVIF or GIF assets as references.",
      });
    }
    const bytes = await ctx.platform.blobs.get(asset.sha256);
    if (!bytes) throw new ApiError("not_found", `referenceAssetIds[${i}]: the asset's file is missing.`);
    references.push({ assetId, bytes });
  }
  return references;
}

/**
 * Waits for one of the node's generation slots (fair across organizations), loads the references, reserves the
 * credits the request may cost (refused with `forbidden` before any paid work when too few are left), asks the
 * provider for the images and stores them as blobs (outside any unit of work). The handler settles the
 * reservation to the images actually produced; a provider failure releases it here, a handler failure in the
 * tool's `abandon`.
 */
export function prepareGeneration(ctx: PrepareContext, input: GenerationInput): Promise<PreparedGeneration> {
  const organizationId = ctx.resolved.organizationId!;
  return slotsOf(ctx.platform).run(organizationId, () => generateIn(ctx, organizationId, input));
}

async function generateIn(
  ctx: PrepareContext,
  organizationId: string,
  input: GenerationInput,
): Promise<PreparedGeneration> {
  const reserved = input.count * CREDITS_PER_IMAGE;
  const references = await loadReferences(ctx, input);
  const reservationId = await reserveAiCredits(ctx.platform.db, organizationId, ctx.now, reserved);
  try {
    const result = await providerFor(ctx.platform.config.media).generate({
      prompt: input.prompt,
      references,
      width: input.width,
      height: input.height,
      count: input.count,
    });
    const uploads: PreparedUpload[] = [];
    for (const bytes of result.images.slice(0, input.count)) {
      uploads.push(await prepareUpload(ctx, bytes, "images", undefined));
    }
    return {
      uploads,
      provider: result.provider,
      model: result.model,
      placeholder: result.placeholder,
      note: result.note,
      reservationId,
      credits: uploads.length * CREDITS_PER_IMAGE,
      organizationId,
    };
  } catch (error) {
    await releaseAiCredits(ctx.platform.db, organizationId, ctx.now, reservationId);
    throw error;
  }
}
