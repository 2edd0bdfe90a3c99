import type { OperationOutput } from "../../../../tools/index.ts";
import { checkbox, field, select, textArea } from "../../ui/components.ts";
import { html, type SafeHtml } from "../../ui/html.ts";

/** A CMS field as `cms.collections.get` returns it. */
export type CmsField = NonNullable<OperationOutput<"cms.collections.get">["fields"]>[number];

/** A CMS item as the item operations return it. */
export type CmsItem = OperationOutput<"cms.items.get">;

/** Types a plain form edits; the rest (lists, references, assets, JSON) are shown read-only. */
const LINE_TYPES: Record<string, "text" | "email" | "url" | "date"> = {
  text: "text",
  email: "email",
  url: "url",
  videoUrl: "url",
  phone: "text",
  color: "text",
  slug: "text",
  date: "date",
  dateTime: "text",
};
const AREA_TYPES = new Set(["longText", "richText"]);

export function isEditable(f: CmsField): boolean {
  return f.type in LINE_TYPES || AREA_TYPES.has(f.type) || ["number", "boolean", "option"].includes(f.type);
}

/** The form field name of a value. */
export const inputName = (key: string) => `v.${key}`;

const hints: Partial<Record<string, string>> = {
  richText: "Markdown.",
  dateTime: "ISO 8601, such as 2026-05-01T09:30:00Z.",
  color: "#rrggbb",
  slug: "Lowercase letters, digits and hyphens.",
};

/** A value as the text of an input. */
function asText(value: unknown): string {
  if (value === null || value === undefined) return "";
  return typeof value === "string" ? value : String(value);
}

/**
 * The input of one editable field, showing `typed` (what was submitted, after a failed save) or else the
 * item's value.
 */
export function valueInput(f: CmsField, value: unknown, typed?: URLSearchParams): SafeHtml {
  const name = inputName(f.key);
  const id = `v-${f.key}`;
  const label = `${f.name}${f.required ? " *" : ""}`;
  const text = typed ? (typed.get(name) ?? "") : asText(value);
  const hint = [f.helpText, hints[f.type]].filter(Boolean).join(" ") || undefined;
  if (f.type === "boolean") {
    const checked = typed ? typed.has(name) : value === true;
    return checkbox({ label: f.name, name, id, checked, ...(hint ? { hint } : {}) });
  }
  if (AREA_TYPES.has(f.type)) {
    return textArea({
      label,
      name,
      id,
      value: text,
      rows: f.type === "richText" ? 8 : 4,
      ...(hint ? { hint } : {}),
    });
  }
  if (f.type === "option") {
    const options = [
      { value: "", label: "—" },
      ...(f.validValues ?? []).map((v) => ({ value: v, label: v })),
    ];
    return select({ label, name, id, options, value: text, ...(hint ? { hint } : {}) });
  }
  if (f.type === "number") {
    return field({
      label,
      name,
      id,
      type: "number",
      step: f.integer ? "1" : "any",
      value: text,
      ...(hint ? { hint } : {}),
    });
  }
  return field({
    label,
    name,
    id,
    type: LINE_TYPES[f.type] ?? "text",
    value: text,
    ...(hint ? { hint } : {}),
  });
}

/** A value the form does not edit, shown as compact JSON. */
export function readOnlyValue(f: CmsField, value: unknown): SafeHtml {
  const text = value === undefined || value === null ? "—" : JSON.stringify(value);
  return html`<div class="field"><div class="label">${f.name} <span class="muted small">(${f.type}, read-only here)</span></div><code class="value-code">${
    text.length > 400 ? `${text.slice(0, 400)}…` : text
  }</code></div>`;
}

/** The value a submitted input stands for: empty clears (null); numbers parsed (else left for validation to name). */
export function submittedValue(f: CmsField, form: URLSearchParams): unknown {
  const name = inputName(f.key);
  if (f.type === "boolean") return form.has(name);
  const text = form.get(name) ?? "";
  if (text.trim() === "") return null;
  if (f.type === "number") {
    const n = Number(text);
    return Number.isFinite(n) ? n : text;
  }
  return text;
}

/** The changed values of a submitted item form: only fields the form showed (listed in `fields`) and that differ. */
export function changedValues(
  fields: readonly CmsField[],
  current: Record<string, unknown>,
  form: URLSearchParams,
): Record<string, unknown> {
  const shown = new Set(form.getAll("fields"));
  const changed: Record<string, unknown> = {};
  for (const f of fields) {
    if (!shown.has(f.key) || !isEditable(f)) continue;
    const next = submittedValue(f, form);
    const before = current[f.key] ?? (f.type === "boolean" ? false : null);
    if (JSON.stringify(next) !== JSON.stringify(before)) changed[f.key] = next;
  }
  return changed;
}

/** The item's display title: its title or name field, else the first text field, else its slug. */
export function itemTitle(fields: readonly CmsField[], item: CmsItem): string {
  const preferred =
    fields.find((f) => f.key === "title" || f.key === "name") ?? fields.find((f) => f.type === "text");
  const value = preferred ? item.values[preferred.key] : undefined;
  return typeof value === "string" && value.trim() ? value : item.slug;
}
