import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { settingsOf } from "../../src/services/analytics/settings.ts";
import { analyticsGroup } from "./group.ts";
import { settings } from "./schemas.ts";

export default defineTool({
  group: analyticsGroup,
  operationId: "analytics.settings.get",
  title: "Get a website's analytics settings",
  description:
    "Returns a website's analytics settings: the time zone of report days and hours (default UTC), the client addresses or CIDR ranges whose visits are not recorded, and whether the dashboard may be shared publicly. Change them with analytics_settings_update.",
  input: z.object({ websiteId: fields.websiteId() }).strict(),
  output: settings,
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websites/{websiteId}/analytics/settings" },
  async handler(input, ctx) {
    await ctx.access.website(input.websiteId);
    return settingsOf(ctx.stores, input.websiteId);
  },
});
