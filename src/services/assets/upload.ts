import type { AssetRecord } from "../../db/stores/assets.ts";
import type { Stores } from "../../db/stores/index.ts";
import type { PrepareContext, ToolContext } from "../../kernel/context.ts";
import { ApiError } from "../../kernel/errors.ts";
import { newId } from "../../kernel/ids.ts";
import { projectAsset } from "./assets.ts";
import { cleanName, extensionOf, type IngestedFile, ingest } from "./ingest.ts";

/** Largest file sent as base64 over MCP (the JSON-RPC body is capped too); larger files go over REST or by URL. */
export const MAX_BASE64_BYTES = 5 * 1024 * 1024;

export interface PreparedUpload extends IngestedFile {
  sha256: string;
  size: number;
  name: string;
}

/**
 * Checks the bytes and stores them as a blob (outside any unit of work: sniffing and decoding take time);
 * nothing references the blob until the handler commits, and housekeeping removes it if that never happens.
 */
export async function prepareUpload(
  ctx: PrepareContext,
  bytes: Uint8Array,
  field: string,
  name: string | undefined,
): Promise<PreparedUpload> {
  const file = await ingest(bytes, field);
  const sha256 = await ctx.platform.blobs.put(bytes);
  const chosen = (name && cleanName(name)) ?? `${sha256.slice(0, 12)}.${extensionOf(file.contentType)}`;
  return { ...file, sha256, size: bytes.byteLength, name: chosen };
}

/** Decodes a base64 field strictly: anything but base64 text is a validation error naming the field. */
export function decodeBase64(value: string, field: string, transport: string): Uint8Array {
  const clean = value.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 === 1) {
    throw new ApiError("validation", `${field}: not base64 text.`, {
      suggestion:
        "Encode the file's bytes as standard base64 (RFC 4648), or upload it as a binary body over REST.",
    });
  }
  const bytes = new Uint8Array(Buffer.from(clean, "base64"));
  if (transport === "mcp" && bytes.byteLength > MAX_BASE64_BYTES) {
    throw new ApiError(
      "validation",
      `${field}: ${bytes.byteLength} bytes, more than the ${MAX_BASE64_BYTES}-byte limit of base64 uploads over MCP.`,
      {
        suggestion:
          "Use {{assets.importFromUrl}} with a public URL of the file, or upload it over REST (up to 25 MiB).",
      },
    );
  }
  return bytes;
}

/** Records the prepared upload as an asset of the website and returns it as the API shows it. */
export function commitUpload(
  ctx: ToolContext<PreparedUpload>,
  input: { websiteId: string; folder?: string; alt?: string },
) {
  return recordUpload(ctx, ctx.prepared, input);
}

/** Records one prepared upload (of several a tool prepared) as an asset of the website; returns it as the API shows it. */
export async function recordUpload(
  ctx: ToolContext<unknown>,
  prepared: PreparedUpload,
  input: { websiteId: string; folder?: string; alt?: string },
) {
  const website = await requireWebsite(ctx.stores, input.websiteId);
  const record: AssetRecord = {
    id: newId(),
    websiteId: input.websiteId,
    sha256: prepared.sha256,
    name: prepared.name,
    folder: input.folder ?? "",
    alt: input.alt ?? "",
    contentType: prepared.contentType,
    size: prepared.size,
    width: prepared.width,
    height: prepared.height,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  await ctx.stores.assets.insert(record);
  return projectAsset(ctx.platform.config, website.slug, record);
}

export async function requireWebsite(stores: Stores, websiteId: string) {
  const website = await stores.websites.get(websiteId);
  if (!website) throw new ApiError("not_found", `websiteId: '${websiteId}' is not a website you can reach.`);
  return website;
}

export async function requireAsset(stores: Stores, websiteId: string, assetId: string) {
  const asset = await stores.assets.get(websiteId, assetId);
  if (!asset) {
    throw new ApiError("not_found", `assetId: '${assetId}' is not an asset of this website.`, {
      suggestion: "Call {{assets.list}} to see the website's assets.",
    });
  }
  return asset;
}
