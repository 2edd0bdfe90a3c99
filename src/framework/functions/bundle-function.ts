import * as esbuild from "esbuild";
import { commonOptions, draftPlugin } from "../bundle.ts";
import { classifyWarnings, fromEsbuildMessage } from "../diagnostics.ts";
import type { Diagnostic } from "../types.ts";

/** A server function's name: the file `functions/<name>.ts` and the path `/_framework/server/<name>`. */
export const FUNCTION_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** The sandbox script of one server function (an IIFE that sets `__sw_function`) and its source map. */
export interface FunctionBundle {
  js: string;
  map: string;
}

/** The names of the draft's server functions: `functions/<name>.ts` (or `.js`) files. */
export function functionNames(files: Iterable<string>): string[] {
  const names: string[] = [];
  for (const path of files) {
    const match = /^functions\/([^/]+)\.(ts|js)$/.exec(path);
    if (match && FUNCTION_NAME.test(match[1]!)) names.push(match[1]!);
  }
  return [...new Set(names)].sort();
}

/** The draft file of function `name`, if the draft has one. */
export const functionFile = (files: ReadonlyMap<string, string>, name: string): string | undefined =>
  [`functions/${name}.ts`, `functions/${name}.js`].find((path) => files.has(path));

/**
 * Bundles `functions/<name>.ts` with what it imports from the draft into one script for the function sandbox.
 * esbuild only parses here; the function runs only in QuickJS. Imports are confined to the draft, as a page's.
 */
export async function bundleFunction(
  files: ReadonlyMap<string, string>,
  name: string,
): Promise<FunctionBundle | { errors: Diagnostic[] }> {
  const file = functionFile(files, name);
  if (!file)
    return { errors: [{ file: `functions/${name}.ts`, line: 0, column: 0, message: "no such function." }] };
  const entry = new Map<string, esbuild.OnLoadResult>([
    [
      "sitewright:function",
      { contents: `import * as fn from "/${file}";\nglobalThis.__sw_function = fn;\n`, loader: "js" },
    ],
  ]);
  try {
    const result = await esbuild.build({
      ...commonOptions,
      entryPoints: ["sitewright:function"],
      entryNames: "bundle",
      format: "iife",
      platform: "neutral",
      target: "es2022",
      sourcemap: "external",
      sourcesContent: false,
      plugins: [draftPlugin(files, entry)],
    });
    const out = (suffix: string) => result.outputFiles.find((f) => f.path.endsWith(suffix))?.text ?? "";
    const { errors } = classifyWarnings(result.warnings);
    if (errors.length > 0) return { errors };
    return { js: out("bundle.js"), map: out("bundle.js.map") };
  } catch (error) {
    const failure = error as esbuild.BuildFailure;
    if (!Array.isArray(failure.errors)) throw error;
    return { errors: failure.errors.map((e) => fromEsbuildMessage(e)) };
  }
}
