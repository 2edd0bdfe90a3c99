import { BlockList } from "node:net";
import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { ApiError } from "../../src/kernel/errors.ts";
import { fields } from "../../src/kernel/schemas.ts";
import {
  addRange,
  isTimeZone,
  MAX_EXCLUDED_RANGES,
  settingsOf,
  toRecord,
} from "../../src/services/analytics/settings.ts";
import { analyticsGroup } from "./group.ts";
import { settings } from "./schemas.ts";

export default defineTool({
  group: analyticsGroup,
  access: "full_editor",
  operationId: "analytics.settings.update",
  title: "Change a website's analytics settings",
  description:
    "Changes a website's analytics settings (omitted ones stay): timeZone (IANA) for report days, excludedIpRanges (replaces the list) not recorded, publicDashboard. Past traffic is unchanged. See them with analytics_settings_get.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      timeZone: z.string().min(1).max(64).optional().describe("IANA time zone, e.g. Europe/Paris or UTC."),
      excludedIpRanges: z
        .array(z.string().min(2).max(64))
        .max(MAX_EXCLUDED_RANGES)
        .optional()
        .describe("Addresses or CIDR ranges (203.0.113.7, 10.0.0.0/8, 2001:db8::/32); replaces the list."),
      publicDashboard: z.boolean().optional(),
    })
    .strict(),
  output: settings,
  annotations: presets.update,
  scope: { websiteId: "websiteId" },
  http: { method: "PATCH", path: "/websites/{websiteId}/analytics/settings" },
  auditTarget: (input) => ({ type: "analytics.settings", id: input.websiteId }),
  async handler(input, ctx) {
    await ctx.access.website(input.websiteId);
    if (input.timeZone !== undefined && !isTimeZone(input.timeZone)) {
      throw new ApiError("validation", `timeZone: '${input.timeZone}' is not an IANA time zone.`, {
        suggestion: "Use a name such as UTC, Europe/Paris or America/New_York.",
      });
    }
    (input.excludedIpRanges ?? []).forEach((range, i) => {
      try {
        addRange(new BlockList(), range);
      } catch (error) {
        throw new ApiError("validation", `excludedIpRanges[${i}]: ${(error as Error).message}.`);
      }
    });
    const current = await settingsOf(ctx.stores, input.websiteId);
    const next = {
      ...current,
      ...(input.timeZone !== undefined ? { timeZone: input.timeZone } : {}),
      ...(input.excludedIpRanges !== undefined ? { excludedIpRanges: input.excludedIpRanges } : {}),
      ...(input.publicDashboard !== undefined ? { publicDashboard: input.publicDashboard } : {}),
    };
    await ctx.stores.analytics.putSettings(toRecord(next, ctx.now));
    return next;
  },
});
