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

it("examples/assets.ts uploads an image, publishes a page using Image and fetches a resized variant", async () => {
  const result = await run(process.execPath, ["--import", "tsx", "examples/assets.ts"], {
    SITEWRIGHT_URL: `${server.url}/v1`,
    SITEWRIGHT_API_KEY: t.adminKey.plaintextKey,
  });
  expect(result.code, `stdout:\n${result.stdout}\nstderr:\n${result.stderr}`).toBe(0);
  const out = result.stdout;
  expect(out).toMatch(/^Uploaded \/_assets\/[0-9a-f]{64}\/meadow\.png \(image\/png, 1600×900\)$/m);
  const checks = out.split("\n").filter((line) => /^(ok|FAIL) /.test(line));
  expect(checks.map((line) => line.split(":")[0])).toEqual(["ok page", "ok srcset", "ok variant"]);
  expect(out).toMatch(
    /^ok variant: GET \/_assets\/\S+\?w=480&format=webp answered 200 image\/webp, webp 480×270$/m,
  );
  const [asset] = (
    await t.call("assets.list", { websiteId: /Created website (\S+)/.exec(out)![1]!, limit: 5 })
  ).items;
  expect(asset).toMatchObject({ name: "meadow.png", alt: "A green meadow", width: 1600 });
}, 120_000);
