import { z } from "zod";
import type { ContextDocumentRecord } from "../../src/db/stores/context-documents.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { CONTEXT_TYPES } from "../../src/services/context/extract.ts";

export const documentId = () =>
  fields.id("context document").describe("Id of the context document (from context_list or context_upload).");

export const documentName = () =>
  z
    .string()
    .min(1)
    .max(200)
    .regex(/^[^/\\\p{Cc}]+$/u, "a file name without slashes or control characters")
    .describe("Name of the document (brand-guide.pdf).");

export const contextDocument = z.object({
  id: fields.id("context document"),
  websiteId: fields.websiteId(),
  name: z.string(),
  mediaType: z
    .string()
    .describe(
      `Found from the bytes when uploaded, never taken from the client: one of ${CONTEXT_TYPES.join(", ")}.`,
    ),
  size: z.number().int().describe("Size of the uploaded file in bytes."),
  sha256: z.string().describe("SHA-256 of the uploaded bytes."),
  textLength: z
    .number()
    .int()
    .describe("Characters of text extracted from it (0 for images: no OCR engine is available)."),
  pageCount: z.number().int().nullable().describe("Pages of a PDF; null for other documents."),
  createdAt: fields.timestamp(),
  updatedAt: fields.timestamp(),
});

const iso = (ms: number) => new Date(ms).toISOString();

/** A document as the API shows it (never its bytes; its text through context_get). */
export function projectDocument(
  row: Omit<ContextDocumentRecord, "text"> & { textLength: number },
): z.output<typeof contextDocument> {
  return {
    id: row.id,
    websiteId: row.websiteId,
    name: row.name,
    mediaType: row.mediaType,
    size: row.size,
    sha256: row.blobHash,
    textLength: row.textLength,
    pageCount: row.pageOffsets ? row.pageOffsets.length : null,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** The summary of a full record. */
export const summarize = ({ text, ...row }: ContextDocumentRecord) => ({ ...row, textLength: text.length });
