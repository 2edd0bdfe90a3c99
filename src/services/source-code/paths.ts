import { ApiError } from "../../kernel/errors.ts";
import { limits } from "./limits.ts";

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its purpose.
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/;
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function invalid(field: string, why: string): ApiError {
  return new ApiError("validation", `${field}: ${why}.`, {
    suggestion:
      "Use a relative POSIX path inside the draft, such as 'pages/index.tsx': forward slashes, no leading '/', no '..', no empty segments.",
  });
}

/**
 * The one spelling of a draft path: Unicode NFC, relative, `/`-separated, `.` segments dropped. Anything that
 * could leave the tree or confuse a file system is refused with `validation` naming `field`: absolute paths,
 * `..`, backslashes, drive letters, NUL and other control characters, empty segments, segments with leading
 * or trailing spaces, and paths longer than the limits.
 */
export function normalizePath(field: string, raw: string): string {
  if (raw === "") throw invalid(field, "must name a file, such as 'pages/index.tsx'");
  if (loneSurrogate.test(raw)) throw invalid(field, "is not valid Unicode");
  if (controlCharacter.test(raw)) throw invalid(field, "must not contain NUL or other control characters");
  if (raw.includes("\\")) throw invalid(field, "must use '/' as the separator, not '\\'");
  if (raw.startsWith("/")) throw invalid(field, "must be relative to the draft's root (no leading '/')");
  const segments = raw.normalize("NFC").split("/");
  if (/^[A-Za-z]:$/.test(segments[0] ?? "")) throw invalid(field, "must not start with a drive letter");
  const kept: string[] = [];
  for (const segment of segments) {
    if (segment === ".") continue;
    if (segment === "") throw invalid(field, "must not contain empty segments ('//' or a trailing '/')");
    if (segment === "..") throw invalid(field, "must not contain '..' segments");
    if (segment.trim() !== segment) throw invalid(field, "segments must not start or end with spaces");
    if (Buffer.byteLength(segment) > limits.maxSegmentBytes) {
      throw invalid(field, `each segment must be at most ${limits.maxSegmentBytes} bytes`);
    }
    kept.push(segment);
  }
  if (kept.length === 0) throw invalid(field, "must name a file, such as 'pages/index.tsx'");
  const path = kept.join("/");
  if ([...path].length > limits.maxPathLength) {
    throw invalid(field, `must be at most ${limits.maxPathLength} characters`);
  }
  return path;
}

/** A list filter: a path prefix with the rules of `normalizePath`, where a trailing '/' selects a folder. */
export function normalizePrefix(field: string, raw: string): string {
  const folder = raw.endsWith("/");
  const path = normalizePath(field, folder ? raw.slice(0, -1) : raw);
  return folder ? `${path}/` : path;
}
