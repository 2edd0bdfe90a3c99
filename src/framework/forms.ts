import type { BuiltForm } from "./types.ts";

/** Where forms post: `/_service/forms/<name>`. */
export const FORM_ACTION_PREFIX = "/_service/forms/";
const FORM_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const NOT_FIELDS = new Set(["submit", "button", "reset", "image"]);

/** A form found in a page, with what is wrong with it, if anything. */
export interface ScannedForm {
  name: string;
  fields: string[];
  /** Problems worth a warning (GET method, a bad name). */
  problems: string[];
}

/** Attributes of one start tag's attribute text (`a="1" b='2' c=3 d`), names lower-cased. */
export function parseAttributes(text: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  const pattern = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
  for (const match of text.matchAll(pattern)) {
    const name = match[1]!.toLowerCase();
    if (!(name in attributes)) attributes[name] = decode(match[2] ?? match[3] ?? match[4] ?? "");
  }
  return attributes;
}

function decode(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/**
 * Finds the forms of a page that post to `/_service/forms/<name>` and the names of their fields
 * (`input`, `textarea`, `select`; buttons excluded). A tolerant scan of tags, not a full HTML parser:
 * a `<form>` runs to its `</form>` or to the next `<form>`.
 */
export function scanForms(html: string): ScannedForm[] {
  const forms: ScannedForm[] = [];
  let open: ScannedForm | undefined;
  const tags = /<(\/?)(form|input|textarea|select|button)\b([^>]*)>/gi;
  for (const match of html.matchAll(tags)) {
    const closing = match[1] === "/";
    const tag = match[2]!.toLowerCase();
    if (tag === "form") {
      open = undefined;
      if (closing) continue;
      const attrs = parseAttributes(match[3]!);
      const action = attrs.action ?? "";
      if (!action.startsWith(FORM_ACTION_PREFIX)) continue;
      const name = action.slice(FORM_ACTION_PREFIX.length).split(/[?#]/)[0]!.replace(/\/$/, "");
      const problems: string[] = [];
      if (!FORM_NAME.test(name)) {
        problems.push(
          `form action ${action}: the name after ${FORM_ACTION_PREFIX} must be 1-64 letters, digits, '-' or '_'`,
        );
      }
      if ((attrs.method ?? "get").toLowerCase() !== "post") {
        problems.push(`form '${name}' must use method="post" to be received`);
      }
      open = { name, fields: [], problems };
      forms.push(open);
      continue;
    }
    if (!open || closing) continue;
    const attrs = parseAttributes(match[3]!);
    const field = attrs.name;
    if (!field) continue;
    if (tag === "button" || (tag === "input" && NOT_FIELDS.has((attrs.type ?? "").toLowerCase()))) continue;
    if (!open.fields.includes(field)) open.fields.push(field);
  }
  return forms;
}

/** The forms of every page, one entry per form and page. */
export function collectForms(pages: readonly { route: string; html: string }[]): {
  forms: BuiltForm[];
  problems: { route: string; message: string }[];
} {
  const forms: BuiltForm[] = [];
  const problems: { route: string; message: string }[] = [];
  for (const page of pages) {
    for (const form of scanForms(page.html)) {
      for (const message of form.problems) problems.push({ route: page.route, message });
      if (FORM_NAME.test(form.name)) forms.push({ name: form.name, fields: form.fields, page: page.route });
    }
  }
  return { forms, problems };
}
