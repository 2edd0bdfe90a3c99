// GeoIP: the country of a client address from a MaxMind DB file, read through SITEWRIGHT_GEOIP_DB once at start.
// The databases are built here with the format's own layout (test/support/mmdb.ts); none is downloaded.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { geoipFromEnv } from "../../src/cli/operations-config.ts";
import { countryLookup } from "../../src/services/analytics/geoip.ts";
import { buildMmdb } from "../support/mmdb.ts";

const COUNTRIES = {
  "198.51.100.0/24": { country: { iso_code: "DE", names: { en: "Germany" } } },
  "198.51.100.128/25": { country: { iso_code: "FR" } },
  "203.0.113.0/24": { registered_country: { iso_code: "jp" } },
  "2001:db8::/32": { country: { iso_code: "NL" }, registered_country: { iso_code: "BE" } },
  "192.0.2.0/24": { country: { iso_code: "Germany" } },
};

describe("analytics GeoIP", () => {
  const dir = mkdtempSync(join(tmpdir(), "sitewright-geoip-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("answers the country of IPv4, IPv4-mapped and IPv6 addresses, the most specific network first", () => {
    const countryOf = countryLookup(buildMmdb(COUNTRIES));
    expect(countryOf("198.51.100.7")).toBe("DE");
    expect(countryOf("198.51.100.200")).toBe("FR");
    expect(countryOf("::ffff:198.51.100.7")).toBe("DE");
    // registered_country when the network has no country; codes upper-cased.
    expect(countryOf("203.0.113.9")).toBe("JP");
    expect(countryOf("2001:db8::1")).toBe("NL");
    // Unknown networks, a value that is not a two-letter code, and text that is no address.
    expect(countryOf("10.0.0.1")).toBeUndefined();
    expect(countryOf("2001:db9::1")).toBeUndefined();
    expect(countryOf("192.0.2.1")).toBeUndefined();
    expect(countryOf("not an address")).toBeUndefined();
  });

  it("reads SITEWRIGHT_GEOIP_DB once, and refuses a path that is missing or not a MaxMind DB", () => {
    expect(geoipFromEnv({})).toEqual({});
    const file = join(dir, "countries.mmdb");
    writeFileSync(file, buildMmdb(COUNTRIES));
    const { geoip } = geoipFromEnv({ SITEWRIGHT_GEOIP_DB: file });
    rmSync(file);
    // Read at start: the lookup keeps working without the file.
    expect(countryLookup(geoip!)("198.51.100.7")).toBe("DE");
    expect(() => geoipFromEnv({ SITEWRIGHT_GEOIP_DB: file })).toThrow(/^SITEWRIGHT_GEOIP_DB: cannot read/);
    const text = join(dir, "countries.csv");
    writeFileSync(text, "network,country\n198.51.100.0/24,DE\n");
    expect(() => geoipFromEnv({ SITEWRIGHT_GEOIP_DB: text })).toThrow(
      /^SITEWRIGHT_GEOIP_DB: '.*countries\.csv' is not a MaxMind DB \(\.mmdb\) file/,
    );
  });
});
