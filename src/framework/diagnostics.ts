import type { Message } from "esbuild";
import { ApiError } from "../kernel/errors.ts";
import type { Diagnostic } from "./types.ts";

/** Namespace esbuild prefixes to the paths of draft files in its messages (`sw:pages/index.tsx`). */
export const FILE_NAMESPACE = "sw";

/** A diagnostic; without a position, line and column are 0. */
export function diagnostic(file: string, message: string, line = 0, column = 0): Diagnostic {
  return { file, line, column, message };
}

/** Thrown inside the build to stop it with diagnostics; `buildSite` turns it into the `validation` ApiError. */
export class BuildFailure extends Error {
  readonly diagnostics: Diagnostic[];
  constructor(diagnostics: Diagnostic[]) {
    super(diagnostics.map(formatDiagnostic).join("\n"));
    this.name = "BuildFailure";
    this.diagnostics = diagnostics;
  }
}

/** `pages/index.tsx:4:10: message` (the position is left out when unknown). */
export function formatDiagnostic(d: Diagnostic): string {
  return d.line > 0 ? `${d.file}:${d.line}:${d.column}: ${d.message}` : `${d.file}: ${d.message}`;
}

/** The public error of a failed build: kind `validation`, every diagnostic in `details`. */
export function buildError(diagnostics: Diagnostic[]): ApiError {
  const list = sortDiagnostics(diagnostics);
  const first = list[0];
  const more = list.length > 1 ? ` (and ${list.length - 1} more)` : "";
  const summary = first ? `${formatDiagnostic(first)}${more}` : "unknown error";
  return new ApiError("validation", `The website failed to build: ${summary}`, {
    details: list,
    suggestion:
      "Fix each file named in details (line and column are 1-based) and build again; docs/framework.md describes the conventions.",
  });
}

/** Orders diagnostics by file and position, dropping exact duplicates. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const d of diagnostics) {
    const key = `${d.file}\0${d.line}\0${d.column}\0${d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
  }
  return out.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
}

/** Strips esbuild's namespace prefix from a draft path (`sw:pages/a.tsx` → `pages/a.tsx`). */
export function draftPath(esbuildPath: string): string {
  return esbuildPath.startsWith(`${FILE_NAMESPACE}:`)
    ? esbuildPath.slice(FILE_NAMESPACE.length + 1)
    : esbuildPath;
}

/** An esbuild error or warning as a diagnostic (esbuild columns are 0-based; ours are 1-based). */
export function fromEsbuildMessage(message: Message, fallbackFile = "(build)"): Diagnostic {
  const loc = message.location;
  let text = message.text;
  const note = message.notes.find((n) => n.text && !n.text.startsWith("You can mark"));
  if (note?.text && note.location) {
    const where = `line ${note.location.line}, column ${note.location.column + 1}`;
    text += `; ${note.text.charAt(0).toLowerCase()}${note.text.slice(1).replace(/( is)? here:?$/, "")} is at ${where}`;
  }
  if (!loc) return diagnostic(fallbackFile, text);
  return diagnostic(draftPath(loc.file), text, loc.line, loc.column + 1);
}

/** esbuild reports CSS problems as warnings; these ids mean the stylesheet is broken, so the build fails. */
const CSS_ERROR_IDS = new Set([
  "css-syntax-error",
  "js-comment-in-css",
  "invalid-@import",
  "invalid-@layer",
  "invalid-@nest",
]);

/** Splits esbuild warnings into the ones that fail a build (broken CSS) and the rest. */
export function classifyWarnings(warnings: readonly Message[]): {
  errors: Diagnostic[];
  warnings: Diagnostic[];
} {
  const out = { errors: [] as Diagnostic[], warnings: [] as Diagnostic[] };
  for (const w of warnings) (CSS_ERROR_IDS.has(w.id) ? out.errors : out.warnings).push(fromEsbuildMessage(w));
  return out;
}
