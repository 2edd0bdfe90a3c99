import { builtinModules } from "node:module";
import { posix } from "node:path";

/** Extensions tried, in order, for an import without one (`./Header` → `./Header.tsx`). */
const IMPORT_EXTENSIONS = [".tsx", ".ts", ".jsx", ".js", ".mjs", ".json", ".md"];

/**
 * Resolves an import of a draft file to another draft path: relative (`./x`, `../x`) to the importer,
 * or site-absolute (`/components/x`). Tries the path, then each extension, then `…/index.<ext>`.
 * Returns undefined when nothing matches or the path leaves the site.
 */
export function resolveDraftImport(
  files: ReadonlyMap<string, string>,
  importer: string,
  specifier: string,
): string | undefined {
  const joined = specifier.startsWith("/")
    ? specifier.slice(1)
    : posix.join(posix.dirname(importer), specifier);
  const base = posix.normalize(joined).replace(/\/$/, "");
  if (base === "." || base.startsWith("../") || base === ".." || base.startsWith("/")) return undefined;
  if (files.has(base)) return base;
  for (const ext of IMPORT_EXTENSIONS) if (files.has(base + ext)) return base + ext;
  for (const ext of IMPORT_EXTENSIONS) if (files.has(`${base}/index${ext}`)) return `${base}/index${ext}`;
  return undefined;
}

/** Whether an import specifier is a path inside the site (relative or site-absolute). */
export function isPathSpecifier(specifier: string): boolean {
  return (
    specifier.startsWith("./") ||
    specifier.startsWith("../") ||
    specifier.startsWith("/") ||
    specifier === "." ||
    specifier === ".."
  );
}

/** Packages website code may import, and what each resolves to (React names go to preact/compat). */
export const PACKAGE_ALIASES: Readonly<Record<string, string>> = {
  react: "preact/compat",
  "react-dom": "preact/compat",
  "react-dom/client": "preact/compat/client",
  "react-dom/server": "preact/compat/server",
  "react/jsx-runtime": "preact/compat/jsx-runtime",
  "react/jsx-dev-runtime": "preact/compat/jsx-dev-runtime",
  preact: "preact",
  "preact/hooks": "preact/hooks",
  "preact/compat": "preact/compat",
  "preact/jsx-runtime": "preact/jsx-runtime",
  "preact/jsx-dev-runtime": "preact/jsx-dev-runtime",
  "preact/compat/client": "preact/compat/client",
  "preact/compat/server": "preact/compat/server",
  "preact/compat/jsx-runtime": "preact/compat/jsx-runtime",
  "preact/compat/jsx-dev-runtime": "preact/compat/jsx-dev-runtime",
};

const builtins = new Set(builtinModules);

/** Whether a specifier names a Node.js built-in module (`fs`, `node:fs`, `fs/promises`). */
export function isNodeBuiltin(specifier: string): boolean {
  return specifier.startsWith("node:") || builtins.has(specifier) || builtins.has(specifier.split("/")[0]!);
}

/** The esbuild loader for a draft file, by extension; undefined for files that cannot be imported. */
export function loaderFor(path: string): "tsx" | "ts" | "jsx" | "json" | "css" | "text" | "js" | undefined {
  const ext = posix.extname(path).toLowerCase();
  switch (ext) {
    case ".tsx":
      return "tsx";
    case ".ts":
    case ".mts":
      return "ts";
    case ".jsx":
    case ".js":
    case ".mjs":
      return "jsx";
    case ".json":
      return "json";
    case ".css":
      return "css";
    case ".md":
      return "js";
    case ".txt":
    case ".svg":
    case ".html":
    case ".csv":
    case ".xml":
      return "text";
    default:
      return undefined;
  }
}
