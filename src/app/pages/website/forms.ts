import type { H3 } from "h3";
import type { OperationInput, OperationOutput } from "../../../../tools/index.ts";
import type { Platform } from "../../../kernel/platform.ts";
import {
  badge,
  card,
  cellTitle,
  emptyState,
  type Flash,
  type Tone,
  table,
  when,
} from "../../ui/components.ts";
import { dayRange, dayRangeFields } from "../../ui/date-range.ts";
import { html, raw, type SafeHtml } from "../../ui/html.ts";
import { csrfField } from "../../ui/layout.ts";
import { done, formAction, handle } from "../context.ts";
import { recipientsCard } from "./form-recipients.ts";
import { type WebsiteContext, websiteContext, websitePage } from "./hub.ts";

const PAGE_SIZE = 25;
export const STATES = ["new", "read", "spam", "archived"] as const;
export const stateTone: Record<string, Tone> = {
  new: "accent",
  read: "neutral",
  spam: "danger",
  archived: "success",
};

type Filters = Pick<OperationInput<"forms.submissions.list">, "formName" | "state" | "from" | "to">;
type Submission = OperationOutput<"forms.submissions.get">;

/** The list filters of the current URL: form, state, and a date range (`to` inclusive, as whole UTC days). */
export function filtersOf(query: URLSearchParams): Filters {
  return {
    ...(query.get("formName") ? { formName: query.get("formName")! } : {}),
    ...(query.get("state") ? { state: query.get("state") as Filters["state"] } : {}),
    ...dayRange(query),
  };
}

/** The filter part of the current query string (no cursor, no notice), to keep across actions. */
function filterQuery(query: URLSearchParams): string {
  const kept = new URLSearchParams();
  for (const name of ["formName", "state", "from", "to"])
    if (query.get(name)) kept.set(name, query.get(name)!);
  const text = kept.toString();
  return text ? `?${text}` : "";
}

/** What a submission says in one line: its first values, cut short. */
function summary(s: Submission): string {
  const text = Object.entries(s.values)
    .filter(([name]) => !name.startsWith("_"))
    .map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(", ") : value}`)
    .join(" · ");
  return text.length > 120 ? `${text.slice(0, 119)}…` : text || "(no values)";
}

function formsCard(ctx: WebsiteContext, forms: OperationOutput<"forms.list">["items"]): SafeHtml {
  const rows = forms.map((f) => [
    cellTitle(
      html`<a href="${ctx.path(`/forms?formName=${encodeURIComponent(f.name)}`)}">${f.name}</a>`,
      f.live ? (f.page ?? "") : html`${badge("not live", "warn")}`,
    ),
    html`<span data-testid="count-new">${f.counts.new}</span>`,
    `${f.counts.read}`,
    `${f.counts.spam}`,
    `${f.counts.archived}`,
    `${f.counts.total}`,
    f.settings.enabled ? badge("enabled", "success") : badge("disabled", "warn"),
    html`<a class="btn small" href="${ctx.path(`/forms/${encodeURIComponent(f.name)}/settings`)}">Settings</a>`,
  ]);
  return card({
    title: "Forms",
    description: html`Forms posting to <code>/_service/forms/&lt;name&gt;</code> on the live site, with submissions per state.`,
    flush: true,
    body: table(
      ["Form", "New", "Read", "Spam", "Archived", "Total", "State", ""],
      rows,
      emptyState(
        "No forms yet",
        'Publish a page with <form action="/_service/forms/<name>" method="post"> and it shows here.',
      ),
    ),
  });
}

function filterBar(
  ctx: WebsiteContext,
  forms: readonly { name: string }[],
  query: URLSearchParams,
): SafeHtml {
  const option = (value: string, label: string, current: string | null) =>
    html`<option value="${value}"${value === (current ?? "") ? raw(" selected") : ""}>${label}</option>`;
  const exportHref = ctx.path(`/forms/export${filterQuery(query)}`);
  return html`<form method="get" action="${ctx.path("/forms")}" class="filters" data-testid="filters">
<div class="field"><label for="f-formName">Form</label><select id="f-formName" name="formName">${option("", "All forms", query.get("formName"))}${forms.map((f) => option(f.name, f.name, query.get("formName")))}</select></div>
<div class="field"><label for="f-state">State</label><select id="f-state" name="state">${option("", "Any state", query.get("state"))}${STATES.map((s) => option(s, s, query.get("state")))}</select></div>
${dayRangeFields(query)}
<div class="form-actions"><button type="submit">Filter</button><a class="btn" href="${exportHref}" download data-testid="export-csv">Export CSV</a></div></form>`;
}

async function render(ctx: WebsiteContext, state: { flash?: Flash; status?: number } = {}) {
  const query = ctx.event.url.searchParams;
  const filters = filtersOf(query);
  const cursor = query.get("cursor");
  const [forms, listed] = await Promise.all([
    ctx.call("forms.list", { websiteId: ctx.website.id }),
    ctx.call("forms.submissions.list", {
      websiteId: ctx.website.id,
      ...filters,
      limit: PAGE_SIZE,
      ...(cursor ? { cursor } : {}),
    }),
  ]);
  const canTriage = ctx.can("forms.submissions.updateState");
  const canDelete = ctx.can("forms.submissions.delete");
  const rows = listed.items.map((s) => [
    canTriage || canDelete
      ? html`<input type="checkbox" name="submissionIds" value="${s.id}" aria-label="Select submission">`
      : "",
    when(s.createdAt),
    s.formName,
    html`<span data-testid="submission-state">${badge(s.state, stateTone[s.state])}</span>`,
    html`<a href="${ctx.path(`/forms/submissions/${encodeURIComponent(s.id)}`)}" data-testid="submission">${summary(s)}</a>`,
  ]);
  const keep = filterQuery(query);
  const next = listed.nextCursor
    ? html`<a class="btn small" href="${ctx.path(`/forms${keep ? `${keep}&` : "?"}cursor=${encodeURIComponent(listed.nextCursor)}`)}">Older submissions</a>`
    : "";
  const bulk =
    rows.length && (canTriage || canDelete)
      ? html`<div class="form-actions wrap">${canTriage ? STATES.map((s) => html`<button type="submit" class="small" name="state" value="${s}">Mark ${s}</button>`) : ""}${
          canDelete
            ? html`<button type="submit" class="small danger" name="action" value="delete">Delete</button>`
            : ""
        }</div>`
      : "";
  const submissions = card({
    title: "Submissions",
    description: "Newest first. Select some to triage or delete them together.",
    body: html`${filterBar(ctx, forms.items, query)}<form method="post" action="${ctx.path(`/forms/bulk${keep}`)}" data-testid="bulk">${csrfField(ctx.csrf)}${table(
      ["", "Received", "Form", "State", "Values"],
      rows,
      emptyState("No submissions", "Nothing matches these filters yet."),
    )}${bulk}</form>`,
    footer: next || undefined,
  });
  return websitePage(ctx, {
    tab: "forms",
    title: "Forms",
    ...state,
    body: html`${formsCard(ctx, forms.items)}${submissions}${await recipientsCard(ctx)}`,
  });
}

/** The forms section: forms with counts, submissions (filtered, paged, bulk triage, delete, CSV export). */
export function registerFormPages(app: H3, platform: Platform): void {
  const path = "/orgs/:organizationId/websites/:websiteId/forms";
  app.get(
    path,
    handle(platform, websiteContext, (ctx) => render(ctx)),
  );
  app.get(
    `${path}/export`,
    handle(platform, websiteContext, async (ctx) => {
      const filters = filtersOf(ctx.event.url.searchParams);
      const exported = await ctx.call("forms.submissions.export", { websiteId: ctx.website.id, ...filters });
      return new Response(exported.csv, {
        headers: {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename="${exported.filename.replace(/[^\w.-]/g, "_")}"`,
          "cache-control": "no-store",
        },
      });
    }),
  );
  app.post(
    `${path}/bulk`,
    formAction(
      platform,
      websiteContext,
      (ctx, failure) => render(ctx, failure),
      async (ctx, form) => {
        const submissionIds = form.getAll("submissionIds");
        const back = ctx.path(`/forms${filterQuery(ctx.event.url.searchParams)}`);
        if (form.get("action") === "delete") {
          await ctx.call("forms.submissions.delete", { websiteId: ctx.website.id, submissionIds });
          return done(back, "submissions-deleted");
        }
        const state = (form.get("state") ?? "") as Submission["state"];
        await ctx.call("forms.submissions.updateState", { websiteId: ctx.website.id, submissionIds, state });
        return done(back, "submissions-updated");
      },
    ),
  );
}
