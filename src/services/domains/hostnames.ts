import { isIP } from "node:net";
import { domainToASCII, domainToUnicode } from "node:url";
import { parse } from "tldts";
import { ApiError } from "../../kernel/errors.ts";

export interface CustomHostname {
  /** Lower-case ASCII; internationalized labels in punycode (`xn--…`). */
  hostname: string;
  /** The same name in Unicode, for people. */
  unicode: string;
  /** `apex`: a registrable domain (`example.com`, `example.co.uk`); `subdomain`: a name below one. */
  kind: "apex" | "subdomain";
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const RESERVED_SUFFIXES = ["localhost", "local", "internal", "invalid", "arpa", "home.arpa", "onion"];

const invalid = (message: string) =>
  new ApiError("validation", `hostname: ${message}`, {
    suggestion:
      "Pass a domain name such as 'example.com' or 'shop.example.com', without scheme, port or path.",
  });

const hostOf = (url: string) => new URL(url).hostname.toLowerCase();

/**
 * Checks a custom domain name strictly and returns its canonical form: IDNA to punycode, no IP literals, no
 * wildcards, ports, paths or reserved names, at least a registrable domain under a public suffix, and never the
 * platform's own hosts (the sites domain and everything under it, the API and app hosts).
 */
export function parseCustomHostname(
  input: string,
  platformHosts: { sitesDomain: string; baseUrl: string; appUrl: string },
): CustomHostname {
  const raw = input.trim().replace(/\.$/, "");
  if (!raw) throw invalid("must not be empty.");
  if (/[/:@?#*\s\\]/.test(raw)) {
    throw invalid(`'${input}' is not a bare domain name (no scheme, port, path, wildcard or spaces).`);
  }
  if (isIP(raw) || /^\[.*\]$/.test(raw) || /^[0-9.]+$/.test(raw)) {
    throw invalid(`'${input}' is an IP address; custom domains are names.`);
  }
  const hostname = domainToASCII(raw.toLowerCase());
  if (!hostname || hostname.length > 253) throw invalid(`'${input}' is not a valid domain name.`);
  const labels = hostname.split(".");
  if (labels.length < 2) throw invalid(`'${input}' needs at least two labels (such as example.com).`);
  const bad = labels.find((label) => !LABEL.test(label));
  if (bad !== undefined) {
    throw invalid(
      `the label '${bad}' of '${input}' must be 1 to 63 letters, digits or hyphens, not starting or ending with a hyphen.`,
    );
  }
  if (/^[0-9]+$/.test(labels.at(-1)!)) throw invalid(`'${input}' has a numeric top-level label.`);
  if (RESERVED_SUFFIXES.some((suffix) => hostname === suffix || hostname.endsWith(`.${suffix}`))) {
    throw invalid(`'${input}' is a reserved name that cannot be delegated.`);
  }
  const platform = [
    platformHosts.sitesDomain.toLowerCase(),
    hostOf(platformHosts.baseUrl),
    hostOf(platformHosts.appUrl),
  ];
  if (platform.some((host) => hostname === host || hostname.endsWith(`.${host}`))) {
    throw invalid(`'${input}' is one of the platform's own hosts; every website already has its subdomain.`);
  }
  const parsed = parse(hostname, { allowPrivateDomains: true });
  if (!parsed.domain || !parsed.publicSuffix || hostname === parsed.publicSuffix) {
    throw invalid(`'${input}' is a public suffix, not a domain anyone can own.`);
  }
  return {
    hostname,
    unicode: domainToUnicode(hostname),
    kind: hostname === parsed.domain ? "apex" : "subdomain",
  };
}
