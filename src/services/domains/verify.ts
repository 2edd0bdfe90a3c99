import { Resolver } from "node:dns/promises";
import type { DomainCheck } from "../../db/schema/domains.ts";
import type { DomainRecord } from "../../db/stores/domains.ts";
import type { Stores } from "../../db/stores/index.ts";
import type { PlatformConfig } from "../../kernel/platform.ts";
import { type ExpectedRecord, expectedRecords } from "./domains.ts";

/** Each query waits this long per try, twice at most: a verification never hangs on a dead server. */
const TIMEOUT_MS = 2500;
const TRIES = 2;

/** Answers with no records of the type (the name or the type does not exist): found nothing. */
const EMPTY = new Set(["ENODATA", "ENOTFOUND", "NXDOMAIN", "ENONAME"]);

const normalize = (name: string) => name.toLowerCase().replace(/\.$/, "");

function resolverFor(config: PlatformConfig): Resolver {
  const resolver = new Resolver({ timeout: TIMEOUT_MS, tries: TRIES });
  if (config.domains.dnsServers.length) resolver.setServers([...config.domains.dnsServers]);
  return resolver;
}

async function lookUp(resolver: Resolver, record: ExpectedRecord): Promise<string[]> {
  try {
    switch (record.type) {
      case "TXT":
        return (await resolver.resolveTxt(record.name)).map((chunks) => chunks.join(""));
      case "A":
        return await resolver.resolve4(record.name);
      case "AAAA":
        return await resolver.resolve6(record.name);
      case "CNAME":
        return (await resolver.resolveCname(record.name)).map(normalize);
    }
  } catch (error) {
    if (EMPTY.has((error as NodeJS.ErrnoException).code ?? "")) return [];
    throw error;
  }
}

/** What one verification found: every expected record, and whether ownership (the TXT record) is proven. */
export interface DomainVerification {
  checks: DomainCheck[];
  owned: boolean;
  /** Records the resolver could not answer for (timeouts, refused queries), with the resolver's code. */
  failures: { name: string; type: string; code: string }[];
}

/**
 * Resolves the records `record` needs with a real DNS resolver (the configured servers, else the system's) and
 * compares each with what is expected. A query that fails counts as not found and is reported in `failures`.
 */
export async function verifyDomain(
  config: PlatformConfig,
  record: DomainRecord,
  owner: DomainRecord,
): Promise<DomainVerification> {
  const resolver = resolverFor(config);
  const failures: DomainVerification["failures"] = [];
  const checks = await Promise.all(
    expectedRecords(config, record, owner.hostname).map(async (expected): Promise<DomainCheck> => {
      let found: string[] = [];
      try {
        found = await lookUp(resolver, expected);
      } catch (error) {
        failures.push({
          name: expected.name,
          type: expected.type,
          code: (error as NodeJS.ErrnoException).code ?? "EFAIL",
        });
      }
      const want = expected.type === "CNAME" ? normalize(expected.value) : expected.value;
      return {
        type: expected.type,
        name: expected.name,
        expected: expected.value,
        found,
        ok: found.includes(want),
      };
    }),
  );
  const owned = checks.some((check) => check.type === "TXT" && check.ok);
  return { checks, owned, failures };
}

/**
 * Records a verification: ownership proven ⇒ verified; not proven ⇒ a pending domain stays pending, a verified one
 * becomes unverified and is served until the grace period after it was first found missing. The `www` twin of an
 * apex follows its apex's state.
 */
export async function recordVerification(
  stores: Stores,
  record: DomainRecord,
  result: DomainVerification,
  now: number,
): Promise<DomainRecord> {
  let next: Pick<DomainRecord, "status" | "verifiedAt" | "failingSince">;
  if (result.owned) next = { status: "verified", verifiedAt: record.verifiedAt ?? now, failingSince: null };
  else if (record.status === "pending") next = { status: "pending", verifiedAt: null, failingSince: null };
  else
    next = { status: "unverified", verifiedAt: record.verifiedAt, failingSince: record.failingSince ?? now };
  const patch = { ...next, checks: result.checks, lastCheckedAt: now, updatedAt: now };
  await stores.domains.update(record.id, patch);
  if (!record.pairedWithId) {
    for (const twin of (await stores.domains.ofWebsite(record.websiteId)).filter(
      (d) => d.pairedWithId === record.id,
    )) {
      await stores.domains.update(twin.id, { ...next, updatedAt: now });
    }
  }
  return { ...record, ...patch };
}
