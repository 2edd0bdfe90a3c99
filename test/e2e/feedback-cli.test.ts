import { beforeAll, describe, expect, it } from "vitest";
import { bin } from "../support/cli-server.ts";
import { dialects } from "../support/databases.ts";
import { useTestPlatform } from "../support/platform.ts";
import { run } from "../support/run.ts";

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`sitewright feedback list [${dialect.name}]`, () => {
    const t = useTestPlatform(dialect.name);
    beforeAll(async () => {
      const site = await t.createWebsite("Feedback site");
      await t.call("feedback.submit", { message: "Older idea", category: "idea" });
      // Newest first even within one millisecond: ids sort by creation.
      await t.call("feedback.submit", { message: "A bug on the site", category: "bug", websiteId: site.id });
    });
    const list = (...args: string[]) =>
      run(process.execPath, [bin, "feedback", "list", ...args], { DATABASE_URL: t.databaseUrl });

    it("prints the feedback newest first, as text or JSON, with filters", async () => {
      const json = await list("--json");
      expect(json.stderr).toBe("");
      expect(json.code).toBe(0);
      const { items } = JSON.parse(json.stdout);
      expect(items.map((item: { message: string }) => item.message)).toEqual([
        "A bug on the site",
        "Older idea",
      ]);
      expect(items[0]).toMatchObject({ category: "bug", organizationId: t.local.organization.id });
      expect(items[0].submittedBy.type).toBe("user");

      const bugs = JSON.parse((await list("--json", "--category", "idea")).stdout);
      expect(bugs.items.map((item: { message: string }) => item.message)).toEqual(["Older idea"]);
      const text = await list("--limit", "1");
      expect(text.stdout).toContain("[bug]");
      expect(text.stdout).not.toContain("Older idea");
      const future = JSON.parse((await list("--json", "--since", "2999-01-01T00:00:00Z")).stdout);
      expect(future.items).toEqual([]);
    }, 120_000); // four CLI processes: about 2 s each on a quiet machine, over 7 s each at load 15

    it("refuses an unknown category with the valid ones", async () => {
      const refused = await list("--category", "rant");
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("bug, idea, documentation, confusing, other");
    });
  });
}
