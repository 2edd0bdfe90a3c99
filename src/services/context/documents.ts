import type { Stores } from "../../db/stores/index.ts";
import type { PrepareContext } from "../../kernel/context.ts";
import { ApiError } from "../../kernel/errors.ts";
import { decodeBase64 } from "../assets/upload.ts";
import { type ExtractedDocument, extractDocument } from "./extract.ts";

/** Largest document sent as base64 over MCP (the JSON-RPC body is capped too); larger ones go over REST. */
export const MAX_CONTEXT_BASE64_BYTES = 5 * 1024 * 1024;

export interface PreparedDocument extends ExtractedDocument {
  blobHash: string;
  size: number;
}

/**
 * Decodes, checks and extracts an upload, then stores its bytes as a blob (outside any unit of work: reading a
 * PDF takes time). Nothing references the blob until the handler records the document; housekeeping removes
 * it if that never happens.
 */
export async function prepareDocument(
  ctx: PrepareContext,
  contentBase64: string,
  name: string,
): Promise<PreparedDocument> {
  const bytes = decodeBase64(contentBase64, "contentBase64", "rest");
  if (ctx.transport === "mcp" && bytes.byteLength > MAX_CONTEXT_BASE64_BYTES) {
    throw new ApiError(
      "validation",
      `contentBase64: ${bytes.byteLength} bytes, more than the ${MAX_CONTEXT_BASE64_BYTES}-byte limit of base64 uploads over MCP.`,
      {
        suggestion:
          "Upload the file over REST (POST /v1/websites/{websiteId}/context, the file as the body).",
      },
    );
  }
  const owner = ctx.resolved.organizationId ?? ctx.resolved.websiteId ?? "";
  const extracted = await extractDocument(bytes, "contentBase64", name, owner);
  const blobHash = await ctx.platform.blobs.put(bytes);
  return { ...extracted, blobHash, size: bytes.byteLength };
}

/** The website's document, or not_found naming the field. */
export async function requireDocument(stores: Stores, websiteId: string, documentId: string) {
  const found = await stores.contextDocuments.get(websiteId, documentId);
  if (!found) {
    throw new ApiError(
      "not_found",
      `documentId: '${documentId}' is not a context document of this website.`,
      {
        suggestion: "Call {{context.list}} to see the website's context documents.",
      },
    );
  }
  return found;
}
