import type { H3 } from "h3";
import type { OperationOutput } from "../../../../tools/index.ts";
import type { Platform } from "../../../kernel/platform.ts";
import { badge, card, cellTitle, emptyState, type Flash, table, when } from "../../ui/components.ts";
import { dayRange, dayRangeFields } from "../../ui/date-range.ts";
import { html, type SafeHtml } from "../../ui/html.ts";
import { handle } from "../context.ts";
import { type WebsiteContext, websiteContext, websitePage } from "./hub.ts";

const PAGE_SIZE = 50;

type Run = OperationOutput<"functions.runs.get">;

/** Where a run failed, `file:line:column` of the draft when known. */
function errorCell(run: Run): SafeHtml {
  if (!run.error) return html`<span class="muted">—</span>`;
  const at = run.error.file
    ? `${run.error.file}${run.error.line ? `:${run.error.line}` : ""}${run.error.column ? `:${run.error.column}` : ""}`
    : "";
  return cellTitle(
    html`<span data-testid="run-error">${run.error.message}</span>`,
    at ? html`<code data-testid="run-error-at">${at}</code>` : "",
  );
}

/** A run's log lines, folded (secret values already shown as [secret NAME] by the platform). */
function logCell(run: Run): SafeHtml {
  if (run.logs.length === 0) return html`<span class="muted">none</span>`;
  const dropped = run.droppedLogs ? `\n… ${run.droppedLogs} more lines not kept` : "";
  return html`<details><summary>${run.logs.length} line${run.logs.length === 1 ? "" : "s"}</summary><pre data-testid="run-logs">${run.logs.join("\n")}${dropped}</pre></details>`;
}

/** The filter fields of the page's query, kept across pages (no cursor). */
const FILTERS = ["function", "status", "from", "to"] as const;

function filters(ctx: WebsiteContext, query: URLSearchParams, name: string, status: string): SafeHtml {
  return html`<form method="get" action="${ctx.path("/functions")}" class="filters">
<div class="field"><label for="f-function">Function</label><input id="f-function" name="function" value="${name}" placeholder="quote"></div>
<div class="field"><label for="f-status">Status</label><input id="f-status" name="status" type="number" min="100" max="599" value="${status}" placeholder="500"></div>
${dayRangeFields(query)}
<div class="form-actions"><button type="submit">Filter</button></div></form>`;
}

async function render(ctx: WebsiteContext, state: { flash?: Flash; status?: number } = {}) {
  const query = ctx.event.url.searchParams;
  const name = query.get("function")?.trim() ?? "";
  const status = query.get("status")?.trim() ?? "";
  const cursor = query.get("cursor");
  const range = dayRange(query);
  const listed = await ctx.call("functions.runs.list", {
    websiteId: ctx.website.id,
    limit: PAGE_SIZE,
    ...(name ? { functionName: name } : {}),
    ...(status ? { status: Number(status) } : {}),
    ...range,
    ...(cursor ? { cursor } : {}),
  });
  const rows = listed.items.map((run) => [
    html`<span data-testid="run" data-function="${run.functionName}">${run.functionName}</span>`,
    badge(run.trigger, run.trigger === "live" ? "accent" : "neutral"),
    html`<span data-testid="run-status">${badge(String(run.status), run.status >= 500 ? "danger" : run.status >= 400 ? "warn" : "success")}</span>`,
    html`<span data-testid="run-duration">${run.durationMs} ms</span>`,
    logCell(run),
    errorCell(run),
    when(run.createdAt),
  ]);
  const kept = new URLSearchParams();
  for (const field of FILTERS) if (query.get(field)?.trim()) kept.set(field, query.get(field)!.trim());
  if (listed.nextCursor) kept.set("cursor", listed.nextCursor);
  const next = listed.nextCursor
    ? html`<a class="btn small" href="${ctx.path(`/functions?${kept}`)}" data-testid="older-runs">Older runs</a>`
    : undefined;
  return websitePage(ctx, {
    tab: "functions",
    title: "Functions",
    ...state,
    body: card({
      title: "Runs",
      description: html`Runs of <code>functions/&lt;name&gt;.ts</code>, newest first: live visitors' requests and draft runs of <code>functions_invoke</code>, kept 30 days.`,
      flush: true,
      body: html`<div class="card-body">${filters(ctx, query, name, status)}</div>${table(
        ["Function", "Trigger", "Status", "Duration", "Log", "Error", "When"],
        rows,
        emptyState(
          "No runs",
          name || status || range.from || range.to
            ? "No run matches the filter."
            : "Runs appear when a function is invoked or visited.",
        ),
      )}`,
      footer: next,
    }),
  });
}

/** The functions section: recorded runs with status, duration, log and error location, filtered by function, status and days. */
export function registerFunctionPages(app: H3, platform: Platform): void {
  app.get(
    "/orgs/:organizationId/websites/:websiteId/functions",
    handle(platform, websiteContext, (ctx) => render(ctx)),
  );
}
