import { describe, expect, it } from "vitest";
import { useExampleServer } from "../support/examples.ts";
import { rawRequest } from "../support/hosting.ts";

/** The one line of `output` matching `pattern` (anchored per line), as its match. */
function line(output: string, pattern: RegExp): RegExpExecArray {
  const match = new RegExp(pattern.source, "m").exec(output);
  if (!match) throw new Error(`No line matching ${pattern} in:\n${output}`);
  return match;
}

describe("examples/build-a-site.ts against a real server", () => {
  const example = useExampleServer();

  it("builds, breaks, fixes, publishes and rolls back a website over MCP, printing what it sees", async () => {
    const result = await example.run("build-a-site.ts");
    const { t, server } = example.served;
    const out = result.stdout;
    expect(result.code, `stdout:\n${out}\nstderr:\n${result.stderr}`).toBe(0);

    const created = line(out, /^Created website: (\S+) name="(Crumb and Crust [^"]+)" slug=(\S+) url=(\S+)$/);
    const [, websiteId, , slug] = created as unknown as [string, string, string, string];
    expect(websiteId).toHaveLength(21);
    expect(line(out, /^Lease: (\S+) held until (\S+)$/)[1]).toHaveLength(21);
    const starter = line(out, /^Starter files \((\d+)\): (.*)$/);
    expect(starter[2]!.split(", ")).toEqual(
      expect.arrayContaining(["pages/index.tsx", "layouts/Layout.tsx", "styles/base.css"]),
    );
    expect(out).toMatch(/^Wrote 5 files: .*pages\/index\.tsx \(replaced\).*pages\/about\.md \(replaced\)/m);
    expect(out).toMatch(/^Check passed: 5 pages \(.*\/about\/.*\), \d+ assets, 0 warnings$/m);

    // The first publish: the live page (read through hosting, by Host header) has the first title.
    const first = line(out, /^Published deployment (\S+): live at (\S+)$/)[1]!;
    const titles = [...out.matchAll(/^Live title(?: after rollback)?: "(.*)"$/gm)].map((m) => m[1]);
    expect(titles).toEqual([
      "Crumb & Crust — Fresh bread every morning",
      "Crumb & Crust — Now open on Sundays",
      "Crumb & Crust — Fresh bread every morning",
    ]);

    // The broken file: a precise diagnostic, at the line the example broke, with a 1-based column.
    const brokeAt = Number(line(out, /^Broke pages\/index\.tsx on purpose at line (\d+): (.*)$/)[1]);
    const diagnostic = line(out, /^Diagnostic: (pages\/index\.tsx):(\d+):(\d+): (.+)$/);
    expect(Number(diagnostic[2])).toBe(brokeAt);
    expect(Number(diagnostic[3])).toBeGreaterThan(0);
    expect(diagnostic[4]).toContain('Unexpected closing "h3" tag does not match opening "h2" tag');
    expect(out).toMatch(
      /^Check failed \(validation\): The website failed to build: pages\/index\.tsx:\d+:\d+: /m,
    );
    expect(out).toMatch(/^Suggestion: .*website_source_code_files_write/m);
    expect(out).toMatch(
      /^Publish refused \(validation\); the live title is still "Crumb & Crust — Fresh bread every morning"$/m,
    );

    // The second publish, then the rollback to the first deployment.
    const second = line(out, /^Published deployment (\S+): live at (\S+) \(previous (\S+)\)$/);
    expect(second[1]).not.toBe(first);
    expect(second[3]).toBe(first);
    expect(out).toContain(`Deployments (2, newest first): ${second[1]} (live), ${first}`);
    expect(out).toContain(`Rolled back to ${first} (previous ${second[1]})`);
    expect(out).toMatch(/^Lease released: true$/m);
    expect(out).toMatch(/^Summary: website /m);
    expect(out.trimEnd().endsWith("Done.")).toBe(true);

    // Through the API: the published deployment is the first one, the draft keeps the fix, the lease is free.
    const headers = { authorization: `Bearer ${t.adminKey.plaintextKey}` };
    const list = await fetch(`${server.url}/v1/websiteSourceCode/deployments?websiteId=${websiteId}`, {
      headers,
    });
    expect(list.status).toBe(200);
    const { items } = (await list.json()) as { items: { id: string; published: boolean }[] };
    expect(items.map((d) => [d.id, d.published])).toEqual([
      [second[1], false],
      [first, true],
    ]);
    const changes = await fetch(`${server.url}/v1/websiteSourceCode/changes?websiteId=${websiteId}`, {
      headers,
    });
    const changed = (await changes.json()) as { deploymentId: string; modified: { path: string }[] };
    expect(changed.deploymentId).toBe(first);
    expect(changed.modified.map((f) => f.path)).toEqual(["pages/index.tsx"]);
    const lease = await fetch(`${server.url}/v1/websiteSourceCode/lease?websiteId=${websiteId}`, { headers });
    expect(await lease.json()).toEqual({ lease: null });

    // And the site itself, as a browser at http://<slug>.localhost:<port>/ gets it.
    const page = await rawRequest(server.port, `${slug}.localhost:${server.port}`, "/");
    expect(page.status).toBe(200);
    expect(page.body.toString()).toContain("<title>Crumb &amp; Crust — Fresh bread every morning</title>");
    expect(page.body.toString()).toContain("Bread worth getting up for.");
    const about = await rawRequest(server.port, `${slug}.localhost`, "/about/");
    expect(about.body.toString()).toContain("<title>Our story</title>");
  }, 120_000);

  it("exits non-zero when the server refuses the key", async () => {
    const result = await example.run("build-a-site.ts", { env: { SITEWRIGHT_API_KEY: "not-a-key" } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("Unexpected failure");
  });
});
