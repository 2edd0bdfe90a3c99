import { existsSync, readdirSync, readFileSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** Where a starter file takes the website's name: `"{{websiteName}}"` in code, `{{websiteName}}` in Markdown. */
const PLACEHOLDER = "{{websiteName}}";

/** The website name as each kind of file needs it: a string literal in code, escaped text in Markdown. */
const namers: Record<string, { placeholder: string; escape: (name: string) => string }> = {
  ".ts": { placeholder: `"${PLACEHOLDER}"`, escape: (name) => JSON.stringify(name) },
  ".tsx": { placeholder: `"${PLACEHOLDER}"`, escape: (name) => JSON.stringify(name) },
  ".md": {
    placeholder: PLACEHOLDER,
    escape: (name) => name.replace(/\s+/g, " ").replace(/[!-/:-@[-`{-~]/g, "\\$&"),
  },
};

/**
 * The starter site's folder: `site/` beside this file in the sources, `starter-site/` beside the bundled build
 * (tsup copies it there).
 */
function siteFolder(): string {
  const candidates = [new URL("./site/", import.meta.url), new URL("./starter-site/", import.meta.url)];
  const found = candidates.find((url) => existsSync(url));
  if (!found) throw new Error(`The starter site is missing: looked for ${candidates.map(String).join(", ")}`);
  return fileURLToPath(found);
}

let templates: ReadonlyMap<string, string> | undefined;

/** The starter's files as they are on disk (read once), in path order; each placeholder checked. */
function readTemplates(): ReadonlyMap<string, string> {
  if (templates) return templates;
  const root = siteFolder();
  const files = new Map<string, string>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const absolute = join(entry.parentPath, entry.name);
    const path = relative(root, absolute).split(sep).join("/");
    const text = readFileSync(absolute, "utf8");
    const namer = namers[extname(path)];
    const rest = namer ? text.replaceAll(namer.placeholder, "") : text;
    if (rest.includes(PLACEHOLDER)) throw new Error(`Starter file ${path} has a placeholder out of place`);
    files.set(path, text);
  }
  templates = new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return templates;
}

/**
 * The files a new website starts with, named after the website: a small site that builds and looks good, whose
 * files show the conventions (each starts with a comment explaining its own): pages and routes, a layout,
 * components, a Markdown page, a CMS-backed blog with a dynamic route, a contact form, a 404 page, a stylesheet
 * with light and dark themes, and public files. They live as real files in `site/`, type-checked and linted
 * with the project; the website's name is escaped for each file it goes into.
 */
export function starterFiles(websiteName: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const [path, text] of readTemplates()) {
    const namer = namers[extname(path)];
    files.set(path, namer ? text.replaceAll(namer.placeholder, () => namer.escape(websiteName)) : text);
  }
  return files;
}
