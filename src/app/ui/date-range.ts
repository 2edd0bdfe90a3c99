import { html, type SafeHtml } from "./html.ts";

const DAY_MS = 86_400_000;

/** The query's `name` when it is a whole day (`YYYY-MM-DD`), else "". */
const dayOf = (query: URLSearchParams, name: string): string =>
  /^\d{4}-\d{2}-\d{2}$/.test(query.get(name) ?? "") && !Number.isNaN(Date.parse(query.get(name)!))
    ? query.get(name)!
    : "";

/**
 * A list filter's date range from the page's query: `from` and `to` as whole UTC days (`to` inclusive), as the
 * instants of the operations' [from, to) range. A missing or malformed day leaves that end open.
 */
export function dayRange(query: URLSearchParams): { from?: string; to?: string } {
  const from = dayOf(query, "from");
  const to = dayOf(query, "to");
  return {
    ...(from ? { from: `${from}T00:00:00.000Z` } : {}),
    ...(to ? { to: new Date(Date.parse(`${to}T00:00:00.000Z`) + DAY_MS).toISOString() } : {}),
  };
}

/** The From and To day fields of a filter form (`#f-from`, `#f-to`), showing the query's values. */
export function dayRangeFields(query: URLSearchParams): SafeHtml {
  return html`<div class="field"><label for="f-from">From</label><input id="f-from" type="date" name="from" value="${dayOf(query, "from")}"></div>
<div class="field"><label for="f-to">To</label><input id="f-to" type="date" name="to" value="${dayOf(query, "to")}"></div>`;
}
