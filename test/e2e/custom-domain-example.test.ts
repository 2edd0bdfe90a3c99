import { expect, it } from "vitest";
import { run } from "../support/run.ts";

it("examples/custom-domain.ts verifies a domain on a loopback DNS server and fetches the site through Caddy by name", async () => {
  const result = await run(process.execPath, ["--import", "tsx", "examples/custom-domain.ts"], {});
  expect(result.code, `stdout:\n${result.stdout}\nstderr:\n${result.stderr}`).toBe(0);
  const out = result.stdout;
  expect(out).toMatch(/^ {2}TXT _sitewright-challenge\.bakery\.example sitewright-verification=\S{32}$/m);
  expect(out).toMatch(/^ {2}checked TXT _sitewright-challenge\.bakery\.example: found/m);
  expect(out).toMatch(/^ {2}checked CNAME bakery\.example: found \(sites\.example\)$/m);
  expect(out).toContain("Domain status: verified");
  expect(out).toContain("Billable sites: 1 of 1");
  expect(out).toMatch(
    /^GET https:\/\/bakery\.example\/ through Caddy: 200, certificate for DNS:bakery\.example, title "Corner Bakery/m,
  );
}, 120_000);
