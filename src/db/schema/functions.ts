// Server functions: the record of every run (times are Unix ms).
import type { Columns } from "./columns.ts";
import type { CoreTables } from "./core.ts";
import type { sourceCodeTables } from "./source-code.ts";

/** Where a run failed, mapped to the draft file through the bundle's source map when it could be. */
export interface FunctionRunError {
  message: string;
  file: string | null;
  line: number | null;
  column: number | null;
}

export type FunctionTrigger = "live" | "draft";

export function functionTables(
  c: Columns,
  { websites }: Pick<CoreTables, "websites">,
  { deployments }: Pick<ReturnType<typeof sourceCodeTables>, "deployments">,
) {
  /**
   * The server functions a deployment was built with: each one bundled at publish time into one blob (JSON
   * `{js, map}`: the sandbox script and its source map), so a live call runs it without bundling.
   */
  const deploymentFunctions = c.table(
    "deployment_functions",
    {
      deploymentId: c
        .text("deployment_id")
        .notNull()
        .references(() => deployments.id, { onDelete: "cascade" }),
      name: c.text("name").notNull(),
      /** The draft file it was built from (`functions/<name>.ts`). */
      file: c.text("file").notNull(),
      bundleSha256: c.text("bundle_sha256").notNull(),
      size: c.integer("size").notNull(),
    },
    (t) => [
      c.primaryKey({ columns: [t.deploymentId, t.name] }),
      // The blob sweep asks which blobs are still referenced (db/stores/housekeeping.ts).
      c.index("deployment_functions_bundle_idx").on(t.bundleSha256),
    ],
  );

  /** One run of a server function: live (a visitor's request) or draft (functions.invoke). */
  const functionRuns = c.table(
    "function_runs",
    {
      id: c.text("id").primaryKey(),
      websiteId: c
        .text("website_id")
        .notNull()
        .references(() => websites.id, { onDelete: "cascade" }),
      functionName: c.text("function_name").notNull(),
      trigger: c.text("trigger").$type<FunctionTrigger>().notNull(),
      /** The status answered: the function's, or 500 when it failed. */
      status: c.integer("status").notNull(),
      durationMs: c.integer("duration_ms").notNull(),
      /** What the function logged, capped and with secret values redacted. */
      logs: c.json("logs").$type<string[]>().notNull(),
      /** Log lines past the cap, counted and not kept. */
      droppedLogs: c.integer("dropped_logs").notNull(),
      error: c.json("error").$type<FunctionRunError | null>(),
      createdAt: c.ms("created_at").notNull(),
    },
    (t) => [
      c.index("function_runs_website_idx").on(t.websiteId, t.createdAt, t.id),
      c.index("function_runs_function_idx").on(t.websiteId, t.functionName, t.createdAt, t.id),
      c.index("function_runs_created_idx").on(t.createdAt),
    ],
  );
  return { deploymentFunctions, functionRuns };
}
