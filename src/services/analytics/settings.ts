import { BlockList, isIP } from "node:net";
import type { AnalyticsSettingsRecord } from "../../db/stores/analytics.ts";
import type { Stores } from "../../db/stores/index.ts";

/** A website's analytics settings as operations show them. */
export interface AnalyticsSettings {
  websiteId: string;
  timeZone: string;
  excludedIpRanges: string[];
  publicDashboard: boolean;
}

export const DEFAULT_TIME_ZONE = "UTC";
/** At most this many excluded ranges per website. */
export const MAX_EXCLUDED_RANGES = 100;

export async function settingsOf(stores: Stores, websiteId: string): Promise<AnalyticsSettings> {
  const row = await stores.analytics.settings(websiteId);
  return {
    websiteId,
    timeZone: row?.timeZone ?? DEFAULT_TIME_ZONE,
    excludedIpRanges: row?.excludedIpRanges ?? [],
    publicDashboard: row?.publicDashboard ?? false,
  };
}

export function toRecord(settings: AnalyticsSettings, now: number): AnalyticsSettingsRecord {
  return { ...settings, updatedAt: now };
}

/** Whether `zone` is an IANA time zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Parses `10.0.0.0/8`, `2001:db8::/32` or a single address into a block list entry; throws on anything else. */
export function addRange(list: BlockList, range: string): void {
  const [address = "", bits] = range.split("/");
  const family = isIP(address);
  if (family === 0) throw new Error(`'${range}' is not an IP address or CIDR range`);
  const type = family === 4 ? "ipv4" : "ipv6";
  if (bits === undefined) {
    list.addAddress(address, type);
    return;
  }
  const prefix = Number(bits);
  if (!/^\d+$/.test(bits) || prefix > (family === 4 ? 32 : 128)) {
    throw new Error(`'${range}' has an invalid prefix length`);
  }
  list.addSubnet(address, prefix, type);
}

/** A matcher of client addresses against excluded ranges (IPv4-mapped IPv6 addresses match their IPv4 ranges). */
export function ipMatcher(ranges: readonly string[]): (ip: string) => boolean {
  if (ranges.length === 0) return () => false;
  const list = new BlockList();
  for (const range of ranges) addRange(list, range);
  return (ip) => {
    const plain = ip.startsWith("::ffff:") && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
    const family = isIP(plain);
    return family !== 0 && list.check(plain, family === 4 ? "ipv4" : "ipv6");
  };
}
