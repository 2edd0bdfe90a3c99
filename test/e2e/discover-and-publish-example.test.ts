import { expect, it } from "vitest";
import { useExampleServer } from "../support/examples.ts";

const example = useExampleServer();

it("examples/discover-and-publish.ts finds the tools by intent in discovery mode, creates a site and publishes it", async () => {
  const result = await example.run("discover-and-publish.ts");
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
  const { items } = await example.served.t.call("websiteSourceCode.deployments.list", {
    websiteId: websiteId!,
  });
  expect(items.map((d: { id: string; published: boolean }) => [d.id, d.published])).toEqual([
    [deploymentId, true],
  ]);
}, 120_000);
