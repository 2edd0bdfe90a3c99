import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { useExampleServer } from "../support/examples.ts";
import { pdf } from "../support/pdf.ts";
import { useResearchFixtures } from "../support/research-site.ts";

const fx = useResearchFixtures();
// Research refuses loopback; only the in-process config admits the fixture site's origin, so the platform runs here.
const example = useExampleServer({ research: fx.research });
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "research-example-"));
  writeFileSync(
    join(dir, "brief.pdf"),
    pdf(["Welcome to the Lumen website brief", "Brand colours terracotta and cream, serif headings"]),
  );
});
afterAll(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it("examples/research-to-site.ts researches a business page, searches a PDF brief and publishes a page with a generated hero", async () => {
  const result = await example.run("research-to-site.ts", {
    env: { BUSINESS_URL: `${fx.site.origin}/business`, BRIEF_PDF: join(dir, "brief.pdf") },
  });
  const out = result.stdout;
  expect(result.code, `stdout:\n${out}\nstderr:\n${result.stderr}`).toBe(0);
  const checks = out.split("\n").filter((line) => /^(ok|FAIL) /.test(line));
  expect(checks.map((line) => line.split(":")[0])).toEqual([
    "ok profile",
    "ok contact-sheet",
    "ok brief",
    "ok hero",
    "ok page",
  ]);
  expect(out).toMatch(
    /^ok profile: Trattoria Lumen \(json-ld\), phone \+44 20 7946 0123 \(json-ld\), 2 service\(s\)$/m,
  );
  expect(out).toMatch(/^ok contact-sheet: 1 sheet\(s\) of 2 image\(s\), 0 empty, first \/_assets\/\S+$/m);
  expect(out).toMatch(
    /^ok brief: "brand colours" found in brief\.pdf page 2: ".*Brand colours terracotta and cream, serif headings"$/m,
  );
  const hero = /^ok hero: (\/_assets\/[0-9a-f]{64}\/\S+) \(1200×600\) from offline, placeholder true$/m.exec(
    out,
  );
  expect(hero, out).not.toBeNull();
  expect(out).toMatch(
    new RegExp(`^ok page: GET / answered 200, names Trattoria Lumen: true, shows ${hero![1]}: true$`, "m"),
  );
  // The fixture site served the page and both images to the platform; nothing reached the canary.
  expect(fx.site.hits).toEqual(expect.arrayContaining(["/business", "/logo.png", "/photos/room.png"]));
  expect(fx.canary.hits).toEqual([]);
  // Through the API: the live deployment's home page names the hero asset, which is recorded as generated.
  const websiteId = /Created website (\S+)/.exec(out)![1]!;
  const { items } = await example.served.t.call("assets.list", { websiteId, limit: 20 });
  const stored = items.find((item) => item.path === hero![1]);
  expect(stored?.folder).toBe("generated");
}, 180_000);
