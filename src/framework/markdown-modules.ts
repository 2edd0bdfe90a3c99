import { diagnostic } from "./diagnostics.ts";
import { markdownModule, parseFrontMatter } from "./markdown.ts";
import { resolveDraftImport } from "./resolve.ts";
import { MarkdownTooDeep } from "./safe-markdown.ts";
import type { Diagnostic } from "./types.ts";

/**
 * Compiles every `.md` file of the draft to a module (see `markdownModule`). Front matter errors and
 * layouts that do not exist are reported for pages (`pages/**.md`); other Markdown files compile as
 * well as they can, since they only matter when something imports them. Markdown nested past the depth cap is an
 * error wherever it is.
 */
export function compileMarkdown(files: ReadonlyMap<string, string>): {
  modules: Map<string, string>;
  errors: Diagnostic[];
} {
  const modules = new Map<string, string>();
  const errors: Diagnostic[] = [];
  for (const [file, text] of files) {
    if (!file.endsWith(".md")) continue;
    const report = file.startsWith("pages/");
    const front = parseFrontMatter(file, text);
    if (report) errors.push(...front.errors);
    let layout: string | undefined;
    const wanted = front.data.layout;
    if (typeof wanted === "string" && wanted !== "") {
      const spec = wanted.startsWith(".") || wanted.startsWith("/") ? wanted : `/${wanted}`;
      layout = resolveDraftImport(files, file, spec);
      if (!layout && report) {
        errors.push(
          diagnostic(
            file,
            `layout '${wanted}' was not found: name a component file of the website, like layouts/Layout.tsx.`,
            front.lines.layout ?? 1,
            1,
          ),
        );
      }
    }
    try {
      modules.set(file, markdownModule(front, layout));
    } catch (error) {
      if (!(error instanceof MarkdownTooDeep)) throw error;
      errors.push(diagnostic(file, `Markdown ${error.message}: flatten the nesting.`, error.line || 1, 1));
      modules.set(file, markdownModule({ ...front, body: "" }, layout));
    }
  }
  return { modules, errors };
}
