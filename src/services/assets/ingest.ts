import { fileTypeFromBuffer } from "file-type";
import { ApiError } from "../../kernel/errors.ts";
import { ImageRefused, inspectImage } from "./images.ts";

/** Largest asset, in bytes (REST uploads; over MCP base64 the request body limit caps it lower). */
export const MAX_ASSET_BYTES = 25 * 1024 * 1024;

/** Content types an asset may have, found from its bytes (never from the client's claim). */
export const ASSET_TYPES = [
  "image/jpeg",
  "image/png",
  "image/webp",
  "image/avif",
  "image/gif",
  "image/svg+xml",
  "application/pdf",
  "font/woff2",
  "font/woff",
  "font/ttf",
  "font/otf",
  "video/mp4",
  "video/webm",
  "audio/mpeg",
] as const;

/** Raster types whose dimensions are read and from which variants are made. */
export const RASTER_TYPES: readonly string[] = [
  "image/jpeg",
  "image/png",
  "image/webp",
  "image/avif",
  "image/gif",
];

export interface IngestedFile {
  contentType: string;
  width: number | null;
  height: number | null;
}

/**
 * Checks an upload before anything is stored: size, a content type sniffed from the bytes and allowed, and for
 * images that they decode whole within the pixel limit. `field` names the input the bytes came from.
 */
export async function ingest(bytes: Uint8Array, field: string): Promise<IngestedFile> {
  if (bytes.byteLength === 0) throw new ApiError("validation", `${field}: the file is empty.`);
  if (bytes.byteLength > MAX_ASSET_BYTES) {
    throw new ApiError(
      "validation",
      `${field}: the file is ${bytes.byteLength} bytes, more than the ${MAX_ASSET_BYTES}-byte (25 MiB) limit.`,
      { suggestion: "Compress or resize the file, then upload it again." },
    );
  }
  const sniffed = (await fileTypeFromBuffer(bytes))?.mime;
  // SVG is XML text: file-type names it XML (or nothing); the root element tells.
  const contentType = (!sniffed || /xml/.test(sniffed)) && isSvg(bytes) ? "image/svg+xml" : sniffed;
  if (!contentType || !(ASSET_TYPES as readonly string[]).includes(contentType)) {
    throw new ApiError(
      "validation",
      `${field}: ${contentType ? `files of type ${contentType} are` : "this kind of file is"} not accepted as an asset (the type is read from the bytes).`,
      {
        validValues: [...ASSET_TYPES],
        suggestion: "Upload an image, PDF, font, MP4/WebM video or MP3 file.",
      },
    );
  }
  if (!RASTER_TYPES.includes(contentType) && contentType !== "image/svg+xml") {
    return { contentType, width: null, height: null };
  }
  try {
    const { width, height } = await inspectImage(bytes);
    return { contentType, width, height };
  } catch (error) {
    if (!(error instanceof ImageRefused)) throw error;
    throw new ApiError("validation", `${field}: ${error.message}; nothing was stored.`, {
      suggestion: "Export the image again from its source and upload the new file.",
    });
  }
}

/** An SVG document: XML whose first element is `<svg`, after an optional prolog, comments and doctype. */
function isSvg(bytes: Uint8Array): boolean {
  const head = new TextDecoder("utf-8", { fatal: false })
    .decode(bytes.subarray(0, 4096))
    .replace(/^\uFEFF/, "")
    .replace(/<\?xml[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>/gi, "")
    .trimStart();
  return /^<svg[\s>]/i.test(head);
}

/**
 * A file name as assets keep it: the last path segment, control characters and slashes removed, at most 200
 * characters. Undefined when nothing usable remains.
 */
export function cleanName(name: string): string | undefined {
  const base = name.split(/[\\/]/).pop() ?? "";
  const clean = base
    .replace(/\p{Cc}/gu, "")
    .trim()
    .slice(0, 200);
  return clean && clean !== "." && clean !== ".." ? clean : undefined;
}

/** The extension that fits a content type, for names chosen by the platform. */
export const extensionOf = (contentType: string): string =>
  ({ "image/jpeg": "jpg", "image/svg+xml": "svg", "audio/mpeg": "mp3" })[contentType] ??
  contentType.split("/")[1] ??
  "bin";
