/** What a Host header names on the sites domain: a website's live address, or its editors' draft preview. */
export interface SiteAddress {
  /** `custom`: a website's custom domain (found in the database). */
  kind: "live" | "preview" | "custom";
  /** The first label, lowercased (not necessarily a valid or existing slug); empty for a custom domain. */
  slug: string;
  /** The custom domain's name (lower-case, no port). */
  hostname?: string;
}

/** Preview hosts are `preview--<slug>.<sitesDomain>`: slugs never contain `--`, so no live host looks like one. */
export const PREVIEW_PREFIX = "preview--";

/**
 * Reads Host headers against the sites domain: `<slug>.<sitesDomain>[:port]` (case-insensitive, port and a
 * trailing dot ignored). The sites domain itself (`localhost` by default, also the API and app host in
 * development) and every other host are not sites.
 */
export function siteHostMatcher(
  sitesDomain: string,
): (host: string | null | undefined) => SiteAddress | undefined {
  const suffix = `.${sitesDomain.toLowerCase().replace(/\.$/, "")}`;
  return (host) => {
    if (!host) return undefined;
    let name = host.toLowerCase();
    // Strip the port (site hosts are names, never bracketed IPv6 literals) and a fully-qualified trailing dot.
    const colon = name.lastIndexOf(":");
    if (colon !== -1) name = name.slice(0, colon);
    if (name.endsWith(".")) name = name.slice(0, -1);
    if (name.length <= suffix.length || !name.endsWith(suffix)) return undefined;
    const label = name.slice(0, name.length - suffix.length);
    if (label.startsWith(PREVIEW_PREFIX))
      return { kind: "preview", slug: label.slice(PREVIEW_PREFIX.length) };
    return { kind: "live", slug: label };
  };
}
