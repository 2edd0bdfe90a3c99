import type { Grouping } from "../../db/stores/analytics-queries.ts";
import type { Dimension, Filter } from "../../db/stores/analytics-sql.ts";
import type { ToolContext } from "../../kernel/context.ts";
import { type Metrics, metricsOf, type Period, sourceOf } from "./reports.ts";

export interface BreakdownSpec {
  websiteId: string;
  dimension: Dimension | "property";
  property?: string;
}

/** One page of a breakdown (most visitors first, then by value), whether more follow, and its coverage (see sourceOf). */
export async function breakdownPage(
  ctx: Pick<ToolContext, "stores">,
  spec: BreakdownSpec,
  period: Period,
  filters: readonly Filter[],
  page: { after?: { visitors: number; value: string }; limit: number },
): Promise<{
  items: (Metrics & { value: string })[];
  more: boolean;
  rawFrom?: number;
  shiftedBefore?: number;
}> {
  const grouping: Grouping =
    spec.dimension === "property" ? { property: spec.property ?? "" } : { dimension: spec.dimension };
  const source = await sourceOf(ctx, spec.websiteId, period, filters, {
    rollable: spec.dimension !== "property",
    byValue: true,
  });
  const rows = await ctx.stores.analytics.breakdown(source, grouping, {
    after: page.after,
    limit: page.limit + 1,
  });
  return {
    items: rows.slice(0, page.limit).map((row) => ({ value: row.value, ...metricsOf(row) })),
    more: rows.length > page.limit,
    ...(source.rawFrom !== undefined ? { rawFrom: source.rawFrom } : {}),
    ...(source.shiftedBefore !== undefined ? { shiftedBefore: source.shiftedBefore } : {}),
  };
}
