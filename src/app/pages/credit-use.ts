import type { OperationOutput } from "../../../tools/index.ts";
import { card, cellTitle, emptyState, table, when } from "../ui/components.ts";
import { html, type SafeHtml } from "../ui/html.ts";
import type { OrgContext } from "./context.ts";

type CreditUse = OperationOutput<"media.creditUse.get">;

const n = (value: number) => value.toLocaleString("en-US");

/** Where a generation's credits came from, as "3 allowance · 1 grant · 2 balance" (only the sources used). */
function sources(use: Pick<CreditUse["totals"], "fromIncluded" | "fromGrants" | "fromPrepaid">): string {
  const parts = [
    [use.fromIncluded, "allowance"],
    [use.fromGrants, "grants"],
    [use.fromPrepaid, "balance"],
  ] as const;
  return (
    parts
      .filter(([amount]) => amount > 0)
      .map(([amount, label]) => `${n(amount)} ${label}`)
      .join(" · ") || "—"
  );
}

/**
 * The billing page's AI credit use by generation: this credit period's images and credits (from the allowance,
 * support grants and the prepaid balance), then the recent generations with their website and prompt.
 */
export async function creditUseCard(ctx: OrgContext): Promise<SafeHtml> {
  if (!ctx.can("media.creditUse.get", { organizationId: ctx.organization.id })) return html``;
  const use = await ctx.call("media.creditUse.get", { organizationId: ctx.organization.id, limit: 20 });
  const websitePath = (id: string) =>
    `/orgs/${encodeURIComponent(ctx.organization.id)}/websites/${encodeURIComponent(id)}`;
  const rows = use.recent.map((g) => [
    when(g.at),
    g.websiteId && g.websiteName
      ? html`<a href="${websitePath(g.websiteId)}">${g.websiteName}</a>`
      : html`<span class="muted">Deleted website</span>`,
    html`<span class="prompt-excerpt" title="${g.prompt}">${g.prompt || "—"}</span>`,
    n(g.images),
    cellTitle(n(g.credits), sources(g)),
  ]);
  const t = use.totals;
  return card({
    id: "credit-use",
    title: "AI credit use by generation",
    description: html`This period: ${when(use.period.start)} to ${when(use.period.end)}.`,
    flush: true,
    body: html`<div class="stats card-body" data-testid="credit-use-totals">
<div class="stat"><p class="label">Images generated</p><div class="value" data-testid="images-generated">${n(t.images)}</div><div class="small muted">${n(t.generations)} generation${t.generations === 1 ? "" : "s"}</div></div>
<div class="stat"><p class="label">From allowance</p><div class="value" data-testid="from-allowance">${n(t.fromIncluded)}</div></div>
<div class="stat"><p class="label">From grants</p><div class="value" data-testid="from-grants">${n(t.fromGrants)}</div></div>
<div class="stat"><p class="label">From balance</p><div class="value" data-testid="from-balance">${n(t.fromPrepaid)}</div></div></div>
${table(
  ["Time", "Website", "Prompt", "Images", "Credits"],
  rows,
  emptyState(
    "No generations yet",
    "Images generated for this organization's websites show here with the credits they spent.",
  ),
)}`,
  });
}
