import { randomBytes } from "node:crypto";
import { domainToUnicode } from "node:url";
import type { DomainCheck } from "../../db/schema/domains.ts";
import type { DomainRecord } from "../../db/stores/domains.ts";
import type { Stores } from "../../db/stores/index.ts";
import type { WebsiteRecord } from "../../db/stores/websites.ts";
import type { ToolContext } from "../../kernel/context.ts";
import { ApiError } from "../../kernel/errors.ts";
import { newId } from "../../kernel/ids.ts";
import type { PlatformConfig } from "../../kernel/platform.ts";
import { iso, isoOrNull } from "../../kernel/schemas.ts";
import { freeAccount } from "../billing/account.ts";
import { readCertificateState } from "./certificate.ts";
import { parseCustomHostname } from "./hostnames.ts";

/** Where the ownership TXT record of a domain lives. */
export const CHALLENGE_LABEL = "_sitewright-challenge";
/** Custom domains one website may have, `www` twins included. */
export const MAX_DOMAINS_PER_WEBSITE = 20;

/** One DNS record the domain's owner creates. */
export interface ExpectedRecord {
  purpose: "ownership" | "routing";
  type: DomainCheck["type"];
  name: string;
  value: string;
}

export const challengeValue = (token: string) => `sitewright-verification=${token}`;

/** The records `record` needs: ownership TXT (an apex's, for its `www` twin) and the routing record(s). */
export function expectedRecords(
  config: PlatformConfig,
  record: DomainRecord,
  ownerHost: string,
): ExpectedRecord[] {
  const { ipv4, ipv6, cnameTarget } = config.domains;
  const target = cnameTarget ?? config.sitesDomain;
  const records: ExpectedRecord[] = [
    {
      purpose: "ownership",
      type: "TXT",
      name: `${CHALLENGE_LABEL}.${ownerHost}`,
      value: challengeValue(record.token),
    },
  ];
  if (record.kind === "apex" && (ipv4.length || ipv6.length)) {
    for (const address of ipv4)
      records.push({ purpose: "routing", type: "A", name: record.hostname, value: address });
    for (const address of ipv6)
      records.push({ purpose: "routing", type: "AAAA", name: record.hostname, value: address });
  } else {
    // An apex without configured addresses needs its provider's CNAME flattening (ALIAS or ANAME).
    records.push({ purpose: "routing", type: "CNAME", name: record.hostname, value: target });
  }
  return records;
}

/** Whether hosting serves the domain now: verified, or lost its ownership record less than the grace ago. */
export function isServed(config: PlatformConfig, record: DomainRecord, now: number): boolean {
  if (record.status === "verified") return true;
  return (
    record.status === "unverified" &&
    record.failingSince !== null &&
    now < record.failingSince + config.domains.graceMs
  );
}

/** `https://host` (or http when the platform itself runs on http). */
export function domainOrigin(config: PlatformConfig, hostname: string): string {
  const scheme = config.domains.scheme ?? (config.appUrl.startsWith("https:") ? "https" : "http");
  return `${scheme}://${hostname}`;
}

/**
 * A domain as every operation returns it: its records with what the last verification found, whether it is
 * served, and the certificate the TLS proxy's storage holds for it (`readCertificateState`). `owner` is the domain
 * a www twin takes its ownership record from (the domain itself otherwise).
 */
export async function projectDomain(
  config: PlatformConfig,
  record: DomainRecord,
  owner: DomainRecord,
  now: number,
) {
  const checks = record.checks ?? [];
  const served = isServed(config, record, now);
  return {
    id: record.id,
    websiteId: record.websiteId,
    hostname: record.hostname,
    unicodeHostname: domainToUnicode(record.hostname),
    kind: record.pairedWithId ? ("www" as const) : record.kind,
    pairedWithId: record.pairedWithId,
    primary: record.primary,
    status: record.status,
    served,
    servedUntil:
      record.status === "unverified" && served && record.failingSince !== null
        ? iso(record.failingSince + config.domains.graceMs)
        : null,
    url: `${domainOrigin(config, record.hostname)}/`,
    records: expectedRecords(config, record, owner.hostname).map((expected) => {
      const check = checks.find(
        (c) => c.type === expected.type && c.name === expected.name && c.expected === expected.value,
      );
      return {
        ...expected,
        status: !check
          ? ("unchecked" as const)
          : check.ok
            ? ("found" as const)
            : check.found.length
              ? ("mismatch" as const)
              : ("missing" as const),
        found: check?.found ?? [],
      };
    }),
    verifiedAt: isoOrNull(record.verifiedAt),
    lastCheckedAt: isoOrNull(record.lastCheckedAt),
    createdAt: iso(record.createdAt),
    updatedAt: iso(record.updatedAt),
    certificate: await readCertificateState(config.domains.caddyStorage, record.hostname, served, now),
  };
}

/** The domain a twin takes its ownership from (itself for every other domain). */
export async function ownerOf(stores: Stores, record: DomainRecord): Promise<DomainRecord> {
  if (!record.pairedWithId) return record;
  return (await stores.domains.get(record.websiteId, record.pairedWithId)) ?? record;
}

export async function getDomain(
  ctx: ToolContext<unknown>,
  websiteId: string,
  domainId: string,
): Promise<DomainRecord> {
  const record = await ctx.stores.domains.get(websiteId, domainId);
  if (!record) {
    throw new ApiError("not_found", `domainId: '${domainId}' is not a domain of this website.`, {
      suggestion: "Call {{domains.list}} to see the website's domains.",
    });
  }
  return record;
}

/**
 * A website's first custom domain must fit the organization's site capacity. On an active Pro subscription the
 * capacity follows the custom-domain sites (the plan bills each one beyond the included one), so it grows by this
 * website; otherwise (the free plan, billing past due, a plan with a fixed capacity) a full capacity refuses with
 * `conflict` and the billing step that lifts it. The account row is locked first, so two first domains added at
 * once cannot both pass.
 */
async function assertSiteCapacity(ctx: ToolContext<unknown>, website: WebsiteRecord): Promise<void> {
  if ((await ctx.stores.domains.countOfWebsite(website.id)) > 0) return;
  await ctx.stores.billing.lockAccount(freeAccount(website.organizationId, ctx.now));
  const call = { stores: ctx.stores, organizationId: website.organizationId, now: ctx.now };
  const state = await ctx.platform.billing.state(call);
  const count = await ctx.stores.domains.countBillableSites(website.organizationId);
  const capacity = state.billableSiteCapacity ?? 0;
  if (count + 1 <= capacity) return;
  if (state.status === "active" && state.subscription?.plan === "pro") {
    await ctx.platform.billing.growSiteCapacity(call, count + 1);
    return;
  }
  const details = [{ billableSiteCount: count, billableSiteCapacity: capacity }];
  const covers = `the organization's plan covers ${capacity} website(s) with custom domains and ${count} already have one`;
  if (state.status === "billing_grace") {
    throw new ApiError("conflict", `hostname: ${covers}, and billing is past due.`, {
      suggestion:
        "An owner of the organization settles the payment in the billing portal ({{billing.portal.open}}); Pro then covers another website with a custom domain at its per-site price.",
      details,
    });
  }
  throw new ApiError("conflict", `hostname: ${covers}.`, {
    suggestion:
      state.subscription === undefined
        ? "An owner of the organization subscribes to Pro (it includes one website with a custom domain and bills each further one per site): preview it with {{billing.plan.previewChange}}, then {{billing.plan.checkoutChange}}. Or remove a custom domain from another website with {{domains.remove}}."
        : "The organization's plan has a fixed site capacity: remove a custom domain from another website with {{domains.remove}}, or ask your account contact to raise it (see {{billing.state.get}}).",
    details,
  });
}

async function assertHostnameFree(stores: Stores, hostname: string): Promise<void> {
  if (await stores.domains.byHostname(hostname)) {
    throw new ApiError("conflict", `hostname: '${hostname}' is already a custom domain of a website.`, {
      suggestion: "Remove it from the other website first with {{domains.remove}}, or choose another name.",
    });
  }
}

/** Adds a custom domain (and the `www` twin of an apex when asked), pending verification. */
export async function addDomain(
  ctx: ToolContext<unknown>,
  website: WebsiteRecord,
  input: { hostname: string; www: boolean },
): Promise<DomainRecord> {
  const { config } = ctx.platform;
  const parsed = parseCustomHostname(input.hostname, config);
  const withTwin = input.www && parsed.kind === "apex";
  const twinName = `www.${parsed.hostname}`;
  await assertHostnameFree(ctx.stores, parsed.hostname);
  if (withTwin) await assertHostnameFree(ctx.stores, twinName);
  if ((await ctx.stores.domains.countOfWebsite(website.id)) + (withTwin ? 2 : 1) > MAX_DOMAINS_PER_WEBSITE) {
    throw new ApiError(
      "conflict",
      `hostname: a website can have at most ${MAX_DOMAINS_PER_WEBSITE} custom domains.`,
      {
        suggestion: "Remove one with {{domains.remove}} first.",
      },
    );
  }
  await assertSiteCapacity(ctx, website);
  const base = {
    websiteId: website.id,
    organizationId: website.organizationId,
    primary: false,
    status: "pending" as const,
    token: randomBytes(24).toString("base64url"),
    verifiedAt: null,
    failingSince: null,
    lastCheckedAt: null,
    checks: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  const record: DomainRecord = {
    ...base,
    id: newId(),
    hostname: parsed.hostname,
    kind: parsed.kind,
    pairedWithId: null,
  };
  await ctx.stores.domains.insert(record);
  if (withTwin) {
    // One millisecond later, so lists show the twin right after its apex.
    await ctx.stores.domains.insert({
      ...base,
      id: newId(),
      hostname: twinName,
      kind: "subdomain",
      pairedWithId: record.id,
      createdAt: ctx.now + 1,
    });
  }
  return record;
}

/** Makes a verified domain the website's primary one: every other host of the website redirects to it. */
export async function setPrimary(ctx: ToolContext<unknown>, record: DomainRecord): Promise<DomainRecord> {
  if (!isServed(ctx.platform.config, record, ctx.now)) {
    throw new ApiError(
      "conflict",
      `domainId: '${record.hostname}' is ${record.status}; only a verified domain can be primary.`,
      {
        suggestion: "Create its DNS records, then call {{domains.verify}}.",
      },
    );
  }
  await ctx.stores.domains.setPrimary(record.websiteId, record.id, ctx.now);
  return { ...record, primary: true, updatedAt: ctx.now };
}
