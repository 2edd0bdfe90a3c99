import { diagnostic } from "./diagnostics.ts";
import { markdownModule, parseFrontMatter } from "./markdown.ts";
import { MarkdownTooSlow, renderMarkdownOffThread } from "./markdown-pool.ts";
import { resolveDraftImport } from "./resolve.ts";
import { MarkdownTooDeep } from "./safe-markdown.ts";
import type { Diagnostic } from "./types.ts";

/**
 * Compiles every `.md` file of the draft to a module (see `markdownModule`). Front matter errors and
 * layouts that do not exist are reported for pages (`pages/**.md`); other Markdown files compile as
 * well as they can, since they only matter when something imports them. Markdown nested past the depth cap is an
 * error wherever it is, and so is Markdown that takes longer than the time limit: every text is rendered off the
 * main thread (see markdown-pool.ts).
 */
export async function compileMarkdown(
  files: ReadonlyMap<string, string>,
  /** The organization building: its texts wait in its own turn. */
  owner: string,
): Promise<{
  modules: Map<string, string>;
  errors: Diagnostic[];
}> {
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
    let html = "";
    try {
      html = await renderMarkdownOffThread(front.body, owner);
    } catch (error) {
      if (error instanceof MarkdownTooDeep) {
        errors.push(diagnostic(file, `Markdown ${error.message}: flatten the nesting.`, error.line || 1, 1));
      } else if (error instanceof MarkdownTooSlow) {
        errors.push(
          diagnostic(file, `Markdown ${error.message}: simplify the text (long runs of _, * or [).`, 1, 1),
        );
      } else throw error;
    }
    modules.set(file, markdownModule(front, html, layout));
  }
  return { modules, errors };
}
