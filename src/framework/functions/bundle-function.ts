import * as esbuild from "esbuild";
import { commonOptions, draftPlugin } from "../bundle.ts";
import { classifyWarnings, diagnostic, FILE_NAMESPACE, fromEsbuildMessage } from "../diagnostics.ts";
import type { BuiltFunction, Diagnostic } from "../types.ts";

/** A server function's name: the file `functions/<name>.ts` and the path `/_framework/server/<name>`. */
export const FUNCTION_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** The sandbox script of one server function (an IIFE that sets `__sw_function`) and its source map. */
export type FunctionBundle = Pick<BuiltFunction, "js" | "map">;

/** A top-level file of `functions/` (a function, or a badly named one); files in subfolders are helpers. */
const FUNCTION_FILE = /^functions\/([^/]+)\.(ts|js)$/;

/** The names of the draft's server functions: `functions/<name>.ts` (or `.js`) files. */
export function functionNames(files: Iterable<string>): string[] {
  const names: string[] = [];
  for (const path of files) {
    const match = FUNCTION_FILE.exec(path);
    if (match && FUNCTION_NAME.test(match[1]!)) names.push(match[1]!);
  }
  return [...new Set(names)].sort();
}

/** The draft file of function `name`, if the draft has one. */
export const functionFile = (files: ReadonlyMap<string, string>, name: string): string | undefined =>
  [`functions/${name}.ts`, `functions/${name}.js`].find((path) => files.has(path));

/**
 * Bundles every server function of the draft, as a publish build does: a function that does not bundle (a
 * syntax error, an import of a missing file, no `http` export) is an error diagnostic of the build; a top-level
 * `functions/` file whose name cannot be a function's is a warning (it would never be served).
 */
export async function bundleFunctions(files: ReadonlyMap<string, string>): Promise<{
  functions: BuiltFunction[];
  errors: Diagnostic[];
  warnings: Diagnostic[];
}> {
  const warnings: Diagnostic[] = [];
  for (const path of files.keys()) {
    const match = FUNCTION_FILE.exec(path);
    if (match && !FUNCTION_NAME.test(match[1]!)) {
      warnings.push(
        diagnostic(
          path,
          "not served as a server function: a function's name is 1 to 64 lower-case letters, digits, - or _ (move helpers into a subfolder such as functions/lib/).",
        ),
      );
    }
  }
  const results = await Promise.all(
    functionNames(files.keys()).map(async (name) => ({ name, bundle: await bundleFunction(files, name) })),
  );
  const functions: BuiltFunction[] = [];
  const errors: Diagnostic[] = [];
  for (const { name, bundle } of results) {
    if ("errors" in bundle) errors.push(...bundle.errors);
    else functions.push({ name, file: functionFile(files, name)!, ...bundle });
  }
  return { functions, errors, warnings };
}

/**
 * Bundles `functions/<name>.ts` with what it imports from the draft into one script for the function sandbox.
 * esbuild only parses here; the function runs only in QuickJS. Imports are confined to the draft, as a page's.
 */
export async function bundleFunction(
  files: ReadonlyMap<string, string>,
  name: string,
): Promise<FunctionBundle | { errors: Diagnostic[] }> {
  const file = functionFile(files, name);
  if (!file) return { errors: [diagnostic(`functions/${name}.ts`, "no such function.")] };
  const entry = new Map<string, esbuild.OnLoadResult>([
    [
      "sitewright:function",
      { contents: `import { http } from "/${file}";\nglobalThis.__sw_function = { http };\n`, loader: "js" },
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
    return { errors: failure.errors.map((e) => inFunctionFile(e, file)) };
  }
}

/** An esbuild error as a diagnostic; one located in the framework's entry (no `http` export) is the function's. */
function inFunctionFile(message: esbuild.Message, file: string): Diagnostic {
  if (!message.location || message.location.file.startsWith(`${FILE_NAMESPACE}:`))
    return fromEsbuildMessage(message, file);
  return diagnostic(
    file,
    /No matching export/.test(message.text)
      ? "a server function must export http(request, { env, log, fetch }) returning a Response."
      : message.text,
  );
}
