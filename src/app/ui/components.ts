import { html, raw, type SafeHtml } from "./html.ts";
import { csrfField } from "./layout.ts";

type Content = SafeHtml | string | readonly SafeHtml[] | undefined | null | false;

/** The title row of a page, with an optional description and actions on the right. */
export function pageHeader(title: string, description?: Content, actions?: Content): SafeHtml {
  return html`<div class="page-header"><div><h1>${title}</h1>${description ? html`<p>${description}</p>` : ""}</div>
${actions ? html`<div class="form-actions">${actions}</div>` : ""}</div>`;
}

/** A bordered surface with an optional header (title, description, actions) and footer. */
export function card(options: {
  title?: string;
  description?: Content;
  actions?: Content;
  body: Content;
  footer?: Content;
  flush?: boolean;
  id?: string;
}): SafeHtml {
  const header =
    options.title || options.actions
      ? html`<div class="card-header"><div>${options.title ? html`<h2>${options.title}</h2>` : ""}${
          options.description ? html`<p>${options.description}</p>` : ""
        }</div>${options.actions ?? ""}</div>`
      : "";
  const body = options.flush ? options.body : html`<div class="card-body">${options.body}</div>`;
  return html`<section class="card"${options.id ? html` id="${options.id}"` : ""}>${header}${body}${
    options.footer ? html`<div class="card-footer">${options.footer}</div>` : ""
  }</section>`;
}

/** A table; `empty` replaces it when there are no rows. The last column, when named "", holds actions. */
export function table(
  columns: readonly string[],
  rows: readonly (readonly Content[])[],
  empty?: SafeHtml,
): SafeHtml {
  if (rows.length === 0 && empty) return empty;
  const actionsLast = columns[columns.length - 1] === "";
  // data-label names each cell's column: narrow screens show rows as stacked label/value lists.
  return html`<div class="table-wrap"><table><thead><tr>${columns.map((c) => html`<th>${c}</th>`)}</tr></thead>
<tbody>${rows.map(
    (row) =>
      html`<tr>${row.map((cell, i) =>
        actionsLast && i === row.length - 1
          ? html`<td class="actions">${cell ?? ""}</td>`
          : html`<td data-label="${columns[i] ?? ""}">${cell ?? ""}</td>`,
      )}</tr>`,
  )}</tbody></table></div>`;
}

/** A bold title with a muted line under it, for a table cell. */
export function cellTitle(title: Content, sub?: Content): SafeHtml {
  return html`<div class="cell-title">${title ?? ""}</div>${sub ? html`<div class="cell-sub">${sub}</div>` : ""}`;
}

export type Tone = "neutral" | "accent" | "success" | "danger" | "warn";

export function badge(text: string, tone: Tone = "neutral"): SafeHtml {
  return html`<span class="badge ${tone}">${text}</span>`;
}

/** A message above a form: an operation's error (message and suggestion), or a notice of success. */
export interface Flash {
  kind: "error" | "success" | "info";
  message: string;
  suggestion?: string;
}

export function flash(value: Flash | undefined): SafeHtml {
  if (!value) return html``;
  const role = value.kind === "error" ? "alert" : "status";
  return html`<div class="flash ${value.kind}" role="${role}"><div><strong>${value.message}</strong>${
    value.suggestion ? html`<p>${value.suggestion}</p>` : ""
  }</div></div>`;
}

export function emptyState(title: string, text: string, action?: Content): SafeHtml {
  return html`<div class="empty"><div class="empty-icon">∅</div><h3>${title}</h3><p>${text}</p>${action ?? ""}</div>`;
}

/** A read-only value with a copy button (shown only with JavaScript; without it the text is selectable). */
export function copyField(id: string, value: string, label = "Copy"): SafeHtml {
  return html`<div class="secret"><input type="text" id="${id}" value="${value}" readonly aria-label="Secret value"
onfocus="this.select()"><button type="button" class="primary" data-copy="${id}" hidden>${label}</button></div>`;
}

interface FieldOptions {
  label: string;
  name: string;
  type?: "text" | "email" | "password" | "number" | "date" | "url";
  value?: string;
  required?: boolean;
  placeholder?: string;
  hint?: string;
  autocomplete?: string;
  min?: number;
  /** number: the granularity ("any" accepts decimals). */
  step?: string;
  /** The `id` of the input (default `f-<name>`). */
  id?: string;
}

/** A labelled input. */
export function field(o: FieldOptions): SafeHtml {
  const id = o.id ?? `f-${o.name}`;
  return html`<div class="field"><label for="${id}">${o.label}</label><input id="${id}" name="${o.name}" type="${
    o.type ?? "text"
  }" value="${o.value ?? ""}"${o.required ? raw(" required") : ""}${o.placeholder ? html` placeholder="${o.placeholder}"` : ""}${
    o.autocomplete ? html` autocomplete="${o.autocomplete}"` : ""
  }${o.min !== undefined ? html` min="${o.min}"` : ""}${o.step ? html` step="${o.step}"` : ""}>${o.hint ? html`<div class="hint">${o.hint}</div>` : ""}</div>`;
}

/** A labelled multi-line text input. */
export function textArea(o: {
  label: string;
  name: string;
  id?: string;
  value?: string;
  rows?: number;
  required?: boolean;
  hint?: string;
}): SafeHtml {
  const id = o.id ?? `f-${o.name}`;
  return html`<div class="field"><label for="${id}">${o.label}</label><textarea id="${id}" name="${o.name}" rows="${
    o.rows ?? 5
  }"${o.required ? raw(" required") : ""}>
${o.value ?? ""}</textarea>${o.hint ? html`<div class="hint">${o.hint}</div>` : ""}</div>`;
}

/** A labelled checkbox on one line (submits `value`, "true" by default, when checked). */
export function checkbox(o: {
  label: string;
  name: string;
  id?: string;
  checked?: boolean;
  value?: string;
  hint?: string;
}): SafeHtml {
  const id = o.id ?? `f-${o.name}`;
  return html`<div class="field"><label class="check" for="${id}"><input type="checkbox" id="${id}" name="${o.name}" value="${
    o.value ?? "true"
  }"${o.checked ? raw(" checked") : ""}> ${o.label}</label>${o.hint ? html`<div class="hint">${o.hint}</div>` : ""}</div>`;
}

/** Section tabs of a page: links, the current one marked for assistive technology and styling. */
export function tabs(items: readonly { href: string; label: string; current: boolean }[]): SafeHtml {
  return html`<nav class="tabs" aria-label="Sections">${items.map(
    (t) => html`<a href="${t.href}"${t.current ? raw(' aria-current="page"') : ""}>${t.label}</a>`,
  )}</nav>`;
}

export interface Option {
  value: string;
  label: string;
  hint?: string;
}

/** A labelled select. */
export function select(o: {
  label: string;
  name: string;
  options: readonly Option[];
  value?: string;
  hint?: string;
  id?: string;
}) {
  const id = o.id ?? `f-${o.name}`;
  return html`<div class="field"><label for="${id}">${o.label}</label><select id="${id}" name="${o.name}">${o.options.map(
    (opt) =>
      html`<option value="${opt.value}"${opt.value === o.value ? raw(" selected") : ""}>${opt.label}</option>`,
  )}</select>${o.hint ? html`<div class="hint">${o.hint}</div>` : ""}</div>`;
}

/** Radio buttons or checkboxes as bordered choices with hints. */
export function choices(o: {
  legend: string;
  name: string;
  type: "radio" | "checkbox";
  options: readonly Option[];
  checked?: readonly string[];
}): SafeHtml {
  return html`<fieldset><legend>${o.legend}</legend><div class="choices">${o.options.map(
    (opt) =>
      html`<label class="choice"><input type="${o.type}" name="${o.name}" value="${opt.value}"${
        o.checked?.includes(opt.value) ? raw(" checked") : ""
      }><span>${opt.label}${opt.hint ? html`<small>${opt.hint}</small>` : ""}</span></label>`,
  )}</div></fieldset>`;
}

/** A one-button POST form (with the CSRF field), for row actions. */
export function postButton(o: {
  action: string;
  csrf: string;
  label: string;
  tone?: "primary" | "danger";
  hidden?: Record<string, string>;
  small?: boolean;
}): SafeHtml {
  const classes = [o.tone ?? "", o.small === false ? "" : "small"].filter(Boolean).join(" ");
  return html`<form method="post" action="${o.action}">${csrfField(o.csrf)}${Object.entries(
    o.hidden ?? {},
  ).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  )}<button type="submit" class="${classes}">${o.label}</button></form>`;
}

/** An ISO time as a compact UTC date and time. */
export function when(iso: string | null | undefined): SafeHtml {
  if (!iso) return html`<span class="muted">—</span>`;
  const text = iso.replace("T", " ").replace(/:\d\d(\.\d+)?Z$/, " UTC");
  return html`<time datetime="${iso}" class="nowrap">${text}</time>`;
}

/** Cents as money ("$12.00"). */
export function money(cents: number | null | undefined, currency: string | null | undefined = "usd"): string {
  if (cents === null || cents === undefined) return "—";
  const sign = cents < 0 ? "−" : "";
  const amount = (Math.abs(cents) / 100).toFixed(2);
  return (currency ?? "usd").toLowerCase() === "usd" ? `${sign}$${amount}` : `${sign}${amount} ${currency}`;
}

/** Human label of a role id. */
export function roleLabel(role: string): string {
  return (
    { owner: "Owner", admin: "Admin", full_editor: "Full editor", content_editor: "Content editor" }[role] ??
    role
  );
}

export { raw };
