import type { Stores } from "../../db/stores/index.ts";
import type { PrepareContext } from "../../kernel/context.ts";
import { ApiError } from "../../kernel/errors.ts";
import { decoder, withImageSlot } from "../assets/images.ts";
import { requireDocument } from "./documents.ts";

/** Longest side of the downscaled view context.inspectImage returns. */
export const VIEW_MAX_SIDE = 1024;

/** What context.inspectImage found: the image's dimensions and a downscaled JPEG view stored as a blob. */
export interface ImageView {
  width: number;
  height: number;
  view: { sha256: string; width: number; height: number; mimeType: "image/jpeg" };
}

/**
 * Reads an image document's bytes and makes a downscaled JPEG view of it (bounded like every image job), stored
 * as a blob no row names: the MCP result reads it back at once, and housekeeping sweeps it after its grace period.
 */
export async function viewImage(
  ctx: PrepareContext,
  websiteId: string,
  documentId: string,
): Promise<ImageView> {
  const found = await ctx.read((stores: Stores) => requireDocument(stores, websiteId, documentId));
  if (!found.mediaType.startsWith("image/")) {
    throw new ApiError("validation", `documentId: the document is ${found.mediaType}, not an image.`, {
      suggestion: "Read its text with {{context.read}}, or pick an image from {{context.list}}.",
    });
  }
  const bytes = await ctx.platform.blobs.get(found.blobHash);
  if (!bytes) throw new ApiError("not_found", `documentId: the bytes of '${documentId}' are gone.`);
  const made = await withImageSlot(async () => {
    const meta = await decoder(bytes).metadata();
    const { data, info } = await decoder(bytes)
      .rotate()
      .resize(VIEW_MAX_SIDE, VIEW_MAX_SIDE, { fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 80 })
      .toBuffer({ resolveWithObject: true });
    const width = meta.autoOrient?.width ?? meta.width ?? info.width;
    const height = meta.autoOrient?.height ?? meta.height ?? info.height;
    return { data, info, width, height };
  });
  const sha256 = await ctx.platform.blobs.put(new Uint8Array(made.data));
  return {
    width: made.width,
    height: made.height,
    view: { sha256, width: made.info.width, height: made.info.height, mimeType: "image/jpeg" },
  };
}
