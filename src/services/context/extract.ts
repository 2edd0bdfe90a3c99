import { fileTypeFromBuffer } from "file-type";
import { ApiError } from "../../kernel/errors.ts";
import { ImageRefused, inspectImage } from "../assets/images.ts";
import { htmlToText } from "./html-text.ts";
import { pdfPages } from "./pdf-text.ts";

/** Largest context document, in bytes (REST uploads; base64 over MCP is capped lower). */
export const MAX_CONTEXT_BYTES = 25 * 1024 * 1024;
/** Most characters of text kept from one document. */
export const MAX_CONTEXT_TEXT = 2_000_000;

/** Media types a context document may have, found from its bytes (never from the client's claim). */
export const CONTEXT_TYPES = [
  "application/pdf",
  "text/markdown",
  "text/plain",
  "text/html",
  "image/jpeg",
  "image/png",
  "image/webp",
  "image/gif",
  "image/avif",
] as const;

/** What an upload's bytes turned into: the sniffed type, the searchable text and where PDF pages start. */
export interface ExtractedDocument {
  mediaType: string;
  text: string;
  pageOffsets: number[] | null;
}

const refuse = (field: string, what: string, extra: { validValues?: string[] } = {}) =>
  new ApiError("validation", `${field}: ${what}; nothing was stored.`, {
    ...extra,
    suggestion: "Upload a PDF, Markdown, plain text, HTML or image file with context_upload.",
  });

/** Text files have no magic number: valid UTF-8 without NUL bytes is text; markup and names tell which kind. */
function textKind(text: string, name: string | undefined): string {
  if (/\.(md|markdown)$/i.test(name ?? "")) return "text/markdown";
  if (/\.html?$/i.test(name ?? "") || /^\s*(<!doctype html|<html[\s>])/i.test(text)) return "text/html";
  if (/^#{1,6} \S/m.test(text) || /^```/m.test(text) || /\[[^\]\n]+\]\([^)\s]+\)/.test(text)) {
    return "text/markdown";
  }
  return "text/plain";
}

/**
 * Checks an upload and extracts its text, before anything is stored: size, a media type sniffed from the bytes
 * and allowed, PDFs read in a bounded worker (see pdf-text.ts), images decoded whole (no OCR: their text is
 * empty). `owner` (the organization) takes turns with others for PDF extraction.
 */
export async function extractDocument(
  bytes: Uint8Array,
  field: string,
  name: string | undefined,
  owner: string,
): Promise<ExtractedDocument> {
  if (bytes.byteLength === 0) throw refuse(field, "the file is empty");
  if (bytes.byteLength > MAX_CONTEXT_BYTES) {
    throw refuse(
      field,
      `the file is ${bytes.byteLength} bytes, more than the ${MAX_CONTEXT_BYTES}-byte limit`,
    );
  }
  const sniffed = (await fileTypeFromBuffer(bytes))?.mime;
  let result: ExtractedDocument;
  if (sniffed === "application/pdf") {
    const pages = await pdfPages(bytes, field, owner);
    const pageOffsets: number[] = [];
    let text = "";
    for (const page of pages) {
      pageOffsets.push(text.length);
      text += `${page.trim()}\n\n`;
    }
    result = { mediaType: sniffed, text, pageOffsets };
  } else if (sniffed?.startsWith("image/") && (CONTEXT_TYPES as readonly string[]).includes(sniffed)) {
    try {
      await inspectImage(bytes);
    } catch (error) {
      if (error instanceof ImageRefused) throw refuse(field, error.message);
      throw error;
    }
    result = { mediaType: sniffed, text: "", pageOffsets: null };
  } else if (sniffed === undefined || sniffed === "application/xml" || sniffed === "text/html") {
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      throw refuse(field, "this kind of file is not accepted (not a PDF, an image or UTF-8 text)", {
        validValues: [...CONTEXT_TYPES],
      });
    }
    if (text.includes("\u0000"))
      throw refuse(field, "binary files are not accepted", { validValues: [...CONTEXT_TYPES] });
    const mediaType = sniffed === "text/html" ? "text/html" : textKind(text, name);
    result = { mediaType, text: mediaType === "text/html" ? htmlToText(text) : text, pageOffsets: null };
  } else {
    throw refuse(
      field,
      `files of type ${sniffed} are not accepted as context documents (the type is read from the bytes)`,
      {
        validValues: [...CONTEXT_TYPES],
      },
    );
  }
  if (result.text.length > MAX_CONTEXT_TEXT) {
    throw refuse(
      field,
      `the document holds ${result.text.length} characters of text, more than ${MAX_CONTEXT_TEXT}`,
    );
  }
  return result;
}
