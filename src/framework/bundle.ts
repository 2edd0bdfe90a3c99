import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { assetsModuleSource } from "./assets.ts";
import { cmsModuleSource } from "./cms.ts";
import { classifyWarnings, FILE_NAMESPACE, fromEsbuildMessage } from "./diagnostics.ts";
import { entrySource, runtimeModuleSource } from "./guest-runtime.ts";
import { isNodeBuiltin, isPathSpecifier, loaderFor, PACKAGE_ALIASES, resolveDraftImport } from "./resolve.ts";
import type { RouteFile } from "./routes.ts";
import type { Diagnostic } from "./types.ts";

/** The render bundle: one IIFE script for the sandbox, its source map, and CSS imported from modules. */
export interface RenderBundle {
  js: string;
  /** Source map of `js` (JSON); draft files appear as `sw:<path>`. */
  map: string;
  /** CSS that modules imported (`import "./card.css"`), appended to the site stylesheet. */
  css: string;
  /** Broken CSS that modules imported: the build fails on these. */
  errors: Diagnostic[];
  warnings: Diagnostic[];
}

const INTERNAL = "sw-internal";
/** Marks resolutions the plugin asks esbuild for itself, so it does not intercept them again. */
const PLATFORM = { platform: true };
/** Where platform packages (preact, preact-render-to-string) are resolved from. */
const PLATFORM_DIR = fileURLToPath(new URL(".", import.meta.url));
/** Packages only the platform's own modules import. */
const PLATFORM_ONLY = new Set(["preact-render-to-string"]);

/** Shared esbuild options of every website bundle (JS and CSS). */
export const commonOptions = {
  bundle: true,
  write: false,
  logLevel: "silent",
  charset: "utf8",
  legalComments: "none",
  outdir: "/out",
} as const satisfies esbuild.BuildOptions;

/**
 * Bundles the route modules with preact and the render runtime into one script for the sandbox.
 * esbuild only parses and transforms here; nothing of the website runs in this process.
 * Imports are confined to the draft, the React/Preact packages and `sitewright:cms`.
 */
export async function bundleRender(
  files: ReadonlyMap<string, string>,
  routes: readonly RouteFile[],
  markdown: ReadonlyMap<string, string>,
): Promise<RenderBundle | { errors: Diagnostic[]; warnings: Diagnostic[] }> {
  try {
    const result = await esbuild.build({
      ...commonOptions,
      entryPoints: ["sitewright:entry"],
      entryNames: "bundle",
      format: "iife",
      platform: "browser",
      target: "es2022",
      jsx: "automatic",
      jsxImportSource: "preact",
      sourcemap: "external",
      sourcesContent: false,
      define: { "process.env.NODE_ENV": '"production"' },
      plugins: [draftPlugin(files, renderModules(routes), markdown)],
    });
    const out = (suffix: string) => result.outputFiles.find((f) => f.path.endsWith(suffix))?.text ?? "";
    return {
      js: out("bundle.js"),
      map: out("bundle.js.map"),
      css: out("bundle.css"),
      ...classifyWarnings(result.warnings),
    };
  } catch (error) {
    const failure = error as esbuild.BuildFailure;
    if (!Array.isArray(failure.errors)) throw error;
    const rest = classifyWarnings(failure.warnings ?? []);
    return {
      errors: [...failure.errors.map((e) => fromEsbuildMessage(e)), ...rest.errors],
      warnings: rest.warnings,
    };
  }
}

/** The esbuild plugin serving the draft from memory and refusing every import outside it. */
export function draftPlugin(
  files: ReadonlyMap<string, string>,
  internal: ReadonlyMap<string, esbuild.OnLoadResult>,
  markdown: ReadonlyMap<string, string> = new Map(),
): esbuild.Plugin {
  return {
    name: "sitewright-draft",
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === PLATFORM) return undefined;
        if (args.kind === "entry-point" && internal.has(args.path))
          return { path: args.path, namespace: INTERNAL };
        const fromDraft = args.namespace === FILE_NAMESPACE;
        const fromInternal = args.namespace === INTERNAL;
        if (!fromDraft && !fromInternal) return undefined; // inside preact: esbuild resolves it
        const spec = args.path;
        if (internal.has(spec)) {
          if (fromDraft && spec !== "sitewright:cms" && spec !== "sitewright:assets")
            return refuse(`"${spec}" is internal to the framework.`);
          return { path: spec, namespace: INTERNAL };
        }
        if (args.kind === "url-token") {
          if (/^([a-z][a-z0-9+.-]*:|\/|#)/i.test(spec)) return { path: spec, external: true };
          return refuse(urlAdvice(spec));
        }
        if (/^[a-z][a-z0-9+.-]*:/i.test(spec) && !spec.startsWith("node:")) {
          if (args.kind === "import-rule") return { path: spec, external: true };
          return refuse(
            `"${spec}" cannot be imported: website code imports its own files, react, preact and sitewright:cms.`,
          );
        }
        if (isPathSpecifier(spec)) {
          const path = resolveDraftImport(files, fromInternal ? "" : args.importer, spec);
          if (!path) {
            if (args.kind === "import-rule" && spec.startsWith("/")) return { path: spec, external: true };
            return refuse(`Could not resolve "${spec}": no such file in the website.`);
          }
          if (!loaderFor(path)) return refuse(`"${path}" cannot be imported (unknown file type).`);
          return { path, namespace: FILE_NAMESPACE };
        }
        if (isNodeBuiltin(spec)) {
          return refuse(
            `"${spec}" is a Node.js module: pages render in a sandbox without file system, network or process access.`,
          );
        }
        const target = PACKAGE_ALIASES[spec] ?? (fromInternal && PLATFORM_ONLY.has(spec) ? spec : undefined);
        if (!target) {
          return refuse(
            `Package "${spec}" is not available: website code can import react, react-dom, preact (and their subpaths), sitewright:cms and its own files.`,
          );
        }
        const resolved = await build.resolve(target, {
          kind: args.kind,
          resolveDir: PLATFORM_DIR,
          pluginData: PLATFORM,
        });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        return { path: resolved.path, namespace: "file" };
      });

      build.onLoad({ filter: /.*/, namespace: INTERNAL }, (args) => internal.get(args.path));

      build.onLoad({ filter: /.*/, namespace: FILE_NAMESPACE }, (args) => {
        const md = markdown.get(args.path);
        if (md !== undefined) return { contents: md, loader: "js" };
        return { contents: files.get(args.path) ?? "", loader: loaderFor(args.path) ?? "text" };
      });
    },
  };
}

/** The framework's own modules of the render bundle. */
function renderModules(routes: readonly RouteFile[]): Map<string, esbuild.OnLoadResult> {
  return new Map<string, esbuild.OnLoadResult>([
    ["sitewright:entry", { contents: entrySource(routes), loader: "js" }],
    ["sitewright:runtime", { contents: runtimeModuleSource, loader: "js" }],
    ["sitewright:cms", { contents: cmsModuleSource, loader: "js" }],
    ["sitewright:assets", { contents: assetsModuleSource, loader: "js" }],
  ]);
}

function refuse(text: string): esbuild.OnResolveResult {
  return { errors: [{ text }] };
}

function urlAdvice(spec: string): string {
  return `url(${spec}): refer to files of public/ by their absolute URL, like url(/images/hero.svg).`;
}
