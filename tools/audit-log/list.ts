import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import type { Transport } from "../../src/kernel/context.ts";
import { cursorList } from "../../src/kernel/cursor.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { ApiError } from "../../src/kernel/errors.ts";
import { fields, iso, toMs } from "../../src/kernel/schemas.ts";
import { auditLogGroup } from "./group.ts";

const entry = z.object({
  id: fields.id("audit entry"),
  organizationId: fields.organizationId(),
  at: fields.timestamp(),
  actor: z.object({
    type: z.string().describe("api_key, user, oauth_token, or visitor (a sign-up)."),
    id: z.string(),
    label: z.string().describe("The key's name or the user's name at the time."),
  }),
  operationId: z.string().describe("The operation performed, e.g. apiKeys.revoke."),
  transport: z.enum(["rest", "mcp", "dashboard", "app", "internal"]),
  requestId: z.string().describe("X-Request-Id of the request."),
  websiteId: z.string().nullable(),
  target: z.object({ type: z.string().nullable(), id: z.string().nullable() }),
  outcome: z.string().describe("success, or the error kind the operation failed with."),
});

export default defineTool({
  operationId: "auditLog.list",
  group: auditLogGroup,
  title: "List audit log entries",
  description:
    "Lists an organization's immutable audit log, newest first: actor, operation, website and target, transport, outcome. Filter by actorId, operationId, websiteId and time [from, to). Key details: api_keys_get.",
  input: z
    .object({
      organizationId: fields.organizationId(),
      actorId: z.string().min(1).optional().describe("Only actions by this API key or user id."),
      operationId: z.string().min(1).optional().describe("Only this operation, e.g. websites.delete."),
      websiteId: fields
        .websiteId()
        .optional()
        .describe("Only actions on this website (deleted websites included)."),
      from: fields.timestamp().optional().describe("Only entries at or after this time."),
      to: fields.timestamp().optional().describe("Only entries before this time."),
      ...cursorList.input(),
    })
    .strict(),
  output: cursorList.output(entry),
  annotations: presets.read,
  scope: { organizationId: "organizationId", filterOnly: ["websiteId"] },
  http: { method: "GET", path: "/organizations/{organizationId}/audit-log" },
  async handler(input, ctx) {
    const from = input.from ? toMs(input.from) : undefined;
    const to = input.to ? toMs(input.to) : undefined;
    if (from !== undefined && to !== undefined && from >= to)
      throw new ApiError("validation", "to: must be after from.");
    const rows = await ctx.stores.audit.list({
      organizationId: input.organizationId,
      actorId: input.actorId,
      operationId: input.operationId,
      websiteId: input.websiteId,
      from,
      to,
      ...cursorList.request(input),
    });
    return cursorList.page(
      rows,
      input,
      (row) => ({
        id: row.id,
        organizationId: row.organizationId,
        at: iso(row.at),
        actor: { type: row.actorType, id: row.actorId, label: row.actorLabel },
        operationId: row.operationId,
        transport: row.transport as Transport,
        requestId: row.requestId,
        websiteId: row.websiteId,
        target: { type: row.targetType, id: row.targetId },
        outcome: row.outcome,
      }),
      (row) => ({ createdAt: row.at, id: row.id }),
    );
  },
});
