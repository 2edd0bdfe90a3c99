import { afterAll, beforeAll, expect, it } from "vitest";
import { closeSandboxPool } from "../../src/framework/index.ts";
import { type Listening, listen } from "../../src/server.ts";
import { createTestPlatform, type TestPlatform } from "../support/platform.ts";
import { run } from "../support/run.ts";

let t: TestPlatform;
let server: Listening;
beforeAll(async () => {
  t = await createTestPlatform("sqlite");
  server = await listen(t.app, 0);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
  await closeSandboxPool();
});

it("examples/discover-and-publish.ts finds the tools by intent in discovery mode, creates a site and publishes it", async () => {
  const result = await run(process.execPath, ["--import", "tsx", "examples/discover-and-publish.ts"], {
    SITEWRIGHT_URL: `${server.url}/v1/mcp`,
    SITEWRIGHT_API_KEY: t.adminKey.plaintextKey,
  });
  expect(result.code, `stdout:\n${result.stdout}\nstderr:\n${result.stderr}`).toBe(0);
  const out = result.stdout;
  expect(out).toMatch(/^Tools \(3\): tools_search, tools_describe, tools_call$/m);
  expect(out).toMatch(/^Search "create a website": .*\bwebsites_create\b/m);
  expect(out).toMatch(/^Described websites_create: requires .*\bname\b/m);
  expect(out).toMatch(/^Search "publish a website": .*\bwebsite_source_code_head_publish\b/m);
  expect(out).toMatch(/^Described website_source_code_head_publish: requires websiteId$/m);
  const websiteId = /^Created website: (\S+) name="Discovered site \d+"$/m.exec(out)?.[1];
  expect(websiteId).toHaveLength(21);
  const deploymentId = /^Published deployment (\S+): live at \S+$/m.exec(out)?.[1];

  // The platform itself agrees: the deployment the example printed is the website's live one.
  const { items } = await t.call("websiteSourceCode.deployments.list", { websiteId: websiteId! });
  expect(items.map((d: { id: string; published: boolean }) => [d.id, d.published])).toEqual([
    [deploymentId, true],
  ]);
}, 120_000);
