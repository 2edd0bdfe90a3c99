import { createHash } from "node:crypto";
import type { BuildMode, CmsSnapshot } from "./types.ts";

/** Bumped when the framework's output for the same input changes, so old builds are not reused. */
export const FRAMEWORK_VERSION = "2";

/**
 * SHA-256 (hex) identifying a build's input: framework version, mode, every file (sorted by path,
 * length-prefixed so no two drafts collide) and the CMS snapshot. Equal hashes ⇒ equal output.
 */
export function computeSourceHash(
  files: ReadonlyMap<string, string>,
  snapshot: CmsSnapshot,
  mode: BuildMode,
): string {
  const hash = createHash("sha256");
  hash.update(`sitewright-framework/${FRAMEWORK_VERSION}\0${mode}\0`);
  for (const path of [...files.keys()].sort()) {
    const body = Buffer.from(files.get(path) ?? "", "utf8");
    hash.update(`${Buffer.byteLength(path)}:${path}\0${body.length}:`);
    hash.update(body);
  }
  hash.update(`\0cms\0${canonicalJson(snapshot)}`);
  return hash.digest("hex");
}

/** JSON with object keys sorted, so equal data hashes equally whatever order its keys came in. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Hex SHA-256 of bytes. */
export function sha256Hex(body: Uint8Array | string): string {
  return createHash("sha256").update(body).digest("hex");
}
