import { defineGroup } from "../../src/kernel/define-tool.ts";

export const analyticsGroup = defineGroup({
  tag: "Analytics",
  description:
    "First-party, cookieless traffic of a website's live site: totals with the previous period, time series, breakdowns by page, source, campaign, device, browser, OS, country and custom events, realtime visitors, CSV exports and settings. Reading needs a plan with the analytics_view capability; recording never stops.",
  toolset: "analytics",
  defaults: { access: "content_editor" },
});
