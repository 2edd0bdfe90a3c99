import { parseArgs } from "node:util";
import type { FeedbackRecord } from "../db/stores/feedback.ts";
import { feedbackCategories } from "../services/feedback/feedback.ts";
import { CliError, DEFAULT_DATA_DIR, openExistingDatabase } from "./support.ts";

/** One feedback entry as `sitewright feedback list --json` prints it. */
export function feedbackJson(record: FeedbackRecord) {
  return {
    id: record.id,
    createdAt: new Date(record.createdAt).toISOString(),
    organizationId: record.organizationId,
    websiteId: record.websiteId,
    category: record.category,
    message: record.message,
    operationId: record.operationId,
    requestId: record.requestId,
    submittedBy: { type: record.principalType, id: record.principalId, label: record.principalLabel },
  };
}

/**
 * `sitewright feedback list`: the instance's product feedback, newest first, read from the database directly
 * (DATABASE_URL or the data folder). Only whoever runs the instance can run it; the API has no way to read feedback.
 */
export async function feedbackCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== "list")
    throw new CliError(`Unknown feedback command '${sub ?? ""}'; try: sitewright feedback list`);
  const { values } = parseArgs({
    args: rest,
    options: {
      organization: { type: "string" },
      website: { type: "string" },
      category: { type: "string" },
      since: { type: "string" },
      limit: { type: "string", default: "50" },
      json: { type: "boolean", default: false },
      "data-dir": { type: "string", default: DEFAULT_DATA_DIR },
    },
  });
  const { category, since } = values;
  if (category !== undefined && !(feedbackCategories as readonly string[]).includes(category)) {
    throw new CliError(`--category must be one of ${feedbackCategories.join(", ")}.`);
  }
  const sinceMs = since === undefined ? undefined : Date.parse(since);
  if (sinceMs !== undefined && Number.isNaN(sinceMs))
    throw new CliError(`--since must be an ISO date, not '${since}'.`);
  const limit = Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw new CliError("--limit must be from 1 to 1000.");
  const db = await openExistingDatabase(values["data-dir"], ["feedback", "list", ...rest]);
  try {
    const records = await db.read((stores) =>
      stores.feedback.list({
        limit,
        ...(values.organization ? { organizationId: values.organization } : {}),
        ...(values.website ? { websiteId: values.website } : {}),
        ...(category ? { category } : {}),
        ...(sinceMs === undefined ? {} : { since: sinceMs }),
      }),
    );
    if (values.json) {
      console.log(JSON.stringify({ items: records.map(feedbackJson) }));
      return;
    }
    if (records.length === 0) console.log("No feedback.");
    for (const r of records) {
      const about = [r.websiteId && `website ${r.websiteId}`, r.operationId, r.requestId].filter(Boolean);
      console.log(
        `${new Date(r.createdAt).toISOString()}  [${r.category ?? "-"}]  ${r.principalLabel} (organization ${r.organizationId})${about.length ? `  about ${about.join(", ")}` : ""}`,
      );
      console.log(`  ${r.message.replaceAll("\n", "\n  ")}\n`);
    }
  } finally {
    await db.close();
  }
}
