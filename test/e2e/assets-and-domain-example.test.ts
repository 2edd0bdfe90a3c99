import { expect, it } from "vitest";
import { run } from "../support/run.ts";

it("examples/assets-and-domain.ts uploads photos, publishes a page of srcset variants, verifies a domain on a loopback DNS server and fetches page and variant through Caddy by that name", async () => {
  const result = await run(process.execPath, ["--import", "tsx", "examples/assets-and-domain.ts"], {});
  const out = result.stdout;
  expect(result.code, `stdout:\n${out}\nstderr:\n${result.stderr}`).toBe(0);
  expect(out).toMatch(/^Uploaded \/_assets\/[0-9a-f]{64}\/shopfront\.png \(image\/png, 1600×900\)$/m);
  expect(out).toMatch(/^Uploaded \/_assets\/[0-9a-f]{64}\/loaves\.jpg \(image\/jpeg, 1200×1200\)$/m);
  expect(out).toMatch(/^ {2}TXT _sitewright-challenge\.bakery\.example sitewright-verification=\S{32}$/m);
  expect(out).toMatch(/^ {2}checked TXT _sitewright-challenge\.bakery\.example: found/m);
  expect(out).toMatch(/^ {2}checked CNAME bakery\.example: found \(sites\.example\)$/m);
  expect(out).toContain("Billable sites: 1 of 1");
  const checks = out.split("\n").filter((line) => /^(ok|FAIL) /.test(line));
  expect(checks.map((line) => line.split(":")[0])).toEqual([
    "ok verified",
    "ok page",
    "ok srcset",
    "ok variant",
  ]);
  expect(out).toMatch(
    /^ok page: GET https:\/\/bakery\.example\/ through Caddy answered 200, certificate for DNS:bakery\.example$/m,
  );
  // Both images offer widths up to their own: 1600 px for the shop front, 1200 px for the square loaves.
  expect(out).toMatch(/^ok srcset: (\d+ )+1600; (\d+ )+1200$/m);
  expect(out).toMatch(
    /^ok variant: GET \/_assets\/[0-9a-f]{64}\/shopfront\.png\?w=480&format=webp answered 200 image\/webp, webp 480×270$/m,
  );
}, 180_000);
