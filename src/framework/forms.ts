import type { BuiltForm, FormInput } from "./types.ts";

/** Where forms post: `/_service/forms/<name>`. */
export const FORM_ACTION_PREFIX = "/_service/forms/";
const FORM_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const NOT_FIELDS = new Set(["submit", "button", "reset", "image"]);

/** Names of the fields the platform adds to every form (a honeypot and a signed start time); never recorded. */
export const GUARD_FIELDS = { honeypot: "_sw_website", token: "_sw_token" } as const;
/** Where a form's script fetches the signed start time from (no form name starts with `_`). */
export const FORM_TOKEN_PATH = `${FORM_ACTION_PREFIX}_token`;

/** A form found in a page, with what is wrong with it, if anything. */
export interface ScannedForm {
  name: string;
  fields: string[];
  /** Each field's input type (`text`, `email`, `file`, `textarea`, `select`, …) and whether it is required. */
  inputs: FormInput[];
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
      open = { name, fields: [], inputs: [], problems };
      forms.push(open);
      continue;
    }
    if (!open || closing) continue;
    const attrs = parseAttributes(match[3]!);
    const field = attrs.name;
    if (!field || field.startsWith("_sw_")) continue;
    const type = tag === "input" ? (attrs.type ?? "text").toLowerCase() : tag;
    if (tag === "button" || (tag === "input" && NOT_FIELDS.has(type))) continue;
    if (open.fields.includes(field)) continue;
    open.fields.push(field);
    open.inputs.push({ name: field, type, required: "required" in attrs });
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
      if (FORM_NAME.test(form.name))
        forms.push({ name: form.name, fields: form.fields, inputs: form.inputs, page: page.route });
    }
  }
  return { forms, problems };
}

const GUARD = `<div style="position:absolute;left:-10000px" aria-hidden="true"><label>Leave this field empty <input type="text" name="${GUARD_FIELDS.honeypot}" value="" tabindex="-1" autocomplete="off"></label></div><input type="hidden" name="${GUARD_FIELDS.token}" value=""><script>(function(s){var i=s.previousElementSibling;fetch("${FORM_TOKEN_PATH}",{credentials:"omit"}).then(function(res){return res.ok?res.text():""}).then(function(t){i.value=t},function(){})})(document.currentScript)</script>`;

/**
 * Adds the spam guards to every form of a page that posts to `/_service/forms/<name>`, right after its start
 * tag: a honeypot field people never see, and a hidden field a small script fills with a signed start time
 * (fetched when the page loads, so the page itself stays static and cacheable).
 */
export function guardForms(html: string): string {
  return html.replace(/<form\b([^>]*)>/gi, (tag, attributes: string) => {
    const action = parseAttributes(attributes).action ?? "";
    return action.startsWith(FORM_ACTION_PREFIX) ? `${tag}${GUARD}` : tag;
  });
}
