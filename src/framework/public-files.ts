import { posix } from "node:path";
import { diagnostic } from "./diagnostics.ts";
import { RESERVED_PREFIXES } from "./routes.ts";
import { sha256Hex } from "./source-hash.ts";
import type { BuiltAsset, Diagnostic } from "./types.ts";

const TEXT = "; charset=utf-8";

/** Content types by extension; text types carry `charset=utf-8`. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": `text/html${TEXT}`,
  ".htm": `text/html${TEXT}`,
  ".css": `text/css${TEXT}`,
  ".js": `text/javascript${TEXT}`,
  ".mjs": `text/javascript${TEXT}`,
  ".json": `application/json${TEXT}`,
  ".map": `application/json${TEXT}`,
  ".webmanifest": `application/manifest+json${TEXT}`,
  ".txt": `text/plain${TEXT}`,
  ".md": `text/markdown${TEXT}`,
  ".csv": `text/csv${TEXT}`,
  ".xml": `application/xml${TEXT}`,
  ".rss": `application/rss+xml${TEXT}`,
  ".atom": `application/atom+xml${TEXT}`,
  ".svg": `image/svg+xml${TEXT}`,
  ".ics": `text/calendar${TEXT}`,
  ".vtt": `text/vtt${TEXT}`,
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".pdf": "application/pdf",
  ".wasm": "application/wasm",
};

/** The Content-Type of an output path, by extension (`application/octet-stream` when unknown). */
export function contentTypeOf(path: string): string {
  const base = posix.basename(path).toLowerCase();
  if (base === "robots.txt" || base === "humans.txt" || base === "security.txt") return `text/plain${TEXT}`;
  return CONTENT_TYPES[posix.extname(base)] ?? "application/octet-stream";
}

/** An output asset from its path and text. */
export function textAsset(path: string, text: string, contentType = contentTypeOf(path)): BuiltAsset {
  const body = new TextEncoder().encode(text);
  return { path, contentType, body, sha256: sha256Hex(body) };
}

/**
 * The files of `public/`, served as they are at the same path without `public/`
 * (`public/robots.txt` → `/robots.txt`). Reserved platform paths are refused.
 */
export function publicAssets(files: ReadonlyMap<string, string>): {
  assets: BuiltAsset[];
  errors: Diagnostic[];
} {
  const assets: BuiltAsset[] = [];
  const errors: Diagnostic[] = [];
  for (const [file, text] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!file.startsWith("public/")) continue;
    const path = file.slice("public/".length);
    const first = path.split("/")[0]!;
    if ((RESERVED_PREFIXES as readonly string[]).includes(first)) {
      errors.push(
        diagnostic(file, `/${first}/ is reserved for the platform; move this file elsewhere in public/.`),
      );
      continue;
    }
    assets.push(textAsset(path, text));
  }
  return { assets, errors };
}
