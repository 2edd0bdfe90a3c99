import * as esbuild from "esbuild";
import { commonOptions, draftPlugin } from "./bundle.ts";
import { classifyWarnings, fromEsbuildMessage } from "./diagnostics.ts";
import type { Diagnostic } from "./types.ts";

/** The stylesheets of a draft: `styles/index.css` alone when present (it imports the rest), else every `styles/**.css` by path. */
export function stylesheetEntries(files: ReadonlyMap<string, string>): string[] {
  if (files.has("styles/index.css")) return ["styles/index.css"];
  return [...files.keys()].filter((path) => path.startsWith("styles/") && path.endsWith(".css")).sort();
}

/**
 * Bundles the site's CSS into one stylesheet (imports inlined, minified). `url(/…)` and remote
 * `@import`s stay as they are. Returns the CSS and the diagnostics; an empty string when there is none.
 */
export async function bundleStyles(
  files: ReadonlyMap<string, string>,
): Promise<{ css: string; errors: Diagnostic[]; warnings: Diagnostic[] }> {
  const entries = stylesheetEntries(files);
  if (entries.length === 0) return { css: "", errors: [], warnings: [] };
  const contents = entries.map((path) => `@import ${JSON.stringify(`/${path}`)};`).join("\n");
  try {
    const result = await esbuild.build({
      ...commonOptions,
      entryPoints: ["sitewright:styles"],
      entryNames: "styles",
      minify: true,
      target: ["chrome100", "firefox100", "safari15"],
      plugins: [draftPlugin(files, new Map([["sitewright:styles", { contents, loader: "css" as const }]]))],
    });
    const css = result.outputFiles.find((f) => f.path.endsWith(".css"))?.text ?? "";
    return { css, ...classifyWarnings(result.warnings) };
  } catch (error) {
    const failure = error as esbuild.BuildFailure;
    if (!Array.isArray(failure.errors)) throw error;
    const rest = classifyWarnings(failure.warnings ?? []);
    return {
      css: "",
      errors: [...failure.errors.map((e) => fromEsbuildMessage(e)), ...rest.errors],
      warnings: rest.warnings,
    };
  }
}
