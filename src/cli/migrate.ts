import { parseArgs } from "node:util";
import { DEFAULT_DATA_DIR, openLocalDatabase } from "./support.ts";

/** `sitewright migrate`: applies the committed migrations and exits. */
export async function migrate(args: string[]) {
  const { values } = parseArgs({
    args,
    options: { "data-dir": { type: "string", default: DEFAULT_DATA_DIR } },
  });
  const db = await openLocalDatabase(values["data-dir"]);
  await db.close();
  console.log(`Migrations applied (${db.dialect}).`);
}
