// The Analytics operations, listed explicitly (tools/index.ts gathers every group).
import type { Tool } from "../../src/kernel/define-tool.ts";
import analyticsAggregate from "./aggregate.ts";
import analyticsBreakdown from "./breakdown.ts";
import analyticsExport from "./export.ts";
import analyticsRealtime from "./realtime.ts";
import analyticsSettingsGet from "./settings-get.ts";
import analyticsSettingsUpdate from "./settings-update.ts";
import analyticsTimeseries from "./timeseries.ts";

export const analyticsTools = [
  analyticsAggregate,
  analyticsTimeseries,
  analyticsBreakdown,
  analyticsRealtime,
  analyticsExport,
  analyticsSettingsGet,
  analyticsSettingsUpdate,
] as const satisfies readonly Tool[];
