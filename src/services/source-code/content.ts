import { createHash } from "node:crypto";
import { ApiError } from "../../kernel/errors.ts";
import { bytesText, limits } from "./limits.ts";

export type ContentEncoding = "utf8" | "base64";

/** A file's text as stored: the text, its UTF-8 size and the sha256 of those bytes (lowercase hex). */
export interface FileContent {
  content: string;
  size: number;
  sha256: string;
}

const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const base64 = /^[A-Za-z0-9+/]*={0,2}$/;
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export const sha256Of = (bytes: Uint8Array | string): string =>
  createHash("sha256").update(bytes).digest("hex");

function binary(field: string, why: string): ApiError {
  return new ApiError("validation", `${field}: ${why}; source files are text.`, {
    suggestion:
      "Write text files only (UTF-8, no NUL characters). Put images and other binary files in Assets.",
  });
}

function tooLarge(field: string, size: number): ApiError {
  return new ApiError(
    "validation",
    `${field}: ${size} bytes is larger than the ${bytesText(limits.maxFileBytes)} (${limits.maxFileBytes}-byte) limit per file.`,
    {
      status: 413,
      suggestion: "Split the file into smaller modules, or move large data into the CMS or Assets.",
    },
  );
}

/**
 * Checks and measures a file's content: text only (valid UTF-8, no NUL), at most the per-file limit
 * (`validation` with status 413 past it). `base64` content is decoded first and must itself be UTF-8 text.
 */
export function decodeContent(field: string, raw: string, encoding: ContentEncoding): FileContent {
  let content: string;
  let bytes: Buffer;
  if (encoding === "base64") {
    const compact = raw.replace(/\s+/g, "");
    if (compact.length % 4 === 1 || !base64.test(compact)) throw binary(field, "is not valid base64");
    bytes = Buffer.from(compact, "base64");
    if (bytes.length > limits.maxFileBytes) throw tooLarge(field, bytes.length);
    try {
      content = strictUtf8.decode(bytes);
    } catch {
      throw binary(field, "is not valid UTF-8 text (binary content)");
    }
  } else {
    // A JSON string cannot carry invalid UTF-8, except as unpaired surrogates.
    if (loneSurrogate.test(raw)) throw binary(field, "is not valid UTF-8 text (unpaired surrogate)");
    content = raw;
    bytes = Buffer.from(raw, "utf8");
    if (bytes.length > limits.maxFileBytes) throw tooLarge(field, bytes.length);
  }
  if (content.includes("\u0000")) throw binary(field, "contains NUL characters (binary content)");
  return { content, size: bytes.length, sha256: sha256Of(bytes) };
}
