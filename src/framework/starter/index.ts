import { baseCss } from "./base-css.ts";
import { componentsCss } from "./components-css.ts";
import { pageFiles } from "./pages.ts";
import { publicFiles } from "./public.ts";
import { siteFiles } from "./site.ts";

/**
 * The files a new website starts with: a small site that builds and looks good, whose files show
 * the conventions (each starts with a comment explaining its own): pages and routes, a layout,
 * components, a Markdown page, a CMS-backed blog with a dynamic route, a contact form, a 404 page,
 * a stylesheet with light and dark themes, and public files.
 */
export function starterFiles(): Map<string, string> {
  const files = { ...siteFiles, ...pageFiles, ...baseCss, ...componentsCss, ...publicFiles };
  return new Map(
    Object.keys(files)
      .sort()
      .map((path) => [path, files[path]!]),
  );
}
