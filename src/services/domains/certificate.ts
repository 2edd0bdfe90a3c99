// The certificate the TLS proxy (Caddy) holds for a custom domain, as far as the platform can see it.
import { X509Certificate } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

/** What every domain object reports about the domain's certificate. */
export interface CertificateState {
  /**
   * issued: the proxy holds a valid certificate; expired: it holds only an expired one (it renews it on demand);
   * pending: it holds none yet; unknown: the platform cannot see the proxy's certificates.
   */
  state: "issued" | "expired" | "pending" | "unknown";
  /** The issuing CA's common name, when a certificate was found. */
  issuer: string | null;
  /** When the certificate found expires (ISO 8601). */
  notAfter: string | null;
  message: string;
}

/**
 * Reads the certificate Caddy keeps for `hostname` in its `file_system` storage `storage` (the folder given to
 * Caddy's `storage file_system` option, or its default data folder): `certificates/<issuer>/<name>/<name>.crt`,
 * one folder per issuer (`local` for Caddy's internal CA, the ACME directory's host for others). Of several,
 * the one that expires last counts. `served` says whether the platform serves the name now: Caddy's on-demand
 * TLS asks the platform first, so a name not served gets no certificate.
 */
export async function readCertificateState(
  storage: string | undefined,
  hostname: string,
  served: boolean,
  now: number,
): Promise<CertificateState> {
  const none = { issuer: null, notAfter: null };
  if (!storage) {
    return {
      state: "unknown",
      ...none,
      message:
        "The platform is not configured to read the TLS proxy's certificate storage (SITEWRIGHT_CADDY_STORAGE), so it cannot tell whether a certificate was issued.",
    };
  }
  let issuers: string[];
  try {
    issuers = await readdir(join(storage, "certificates"));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT") {
      return { state: "unknown", ...none, message: `Caddy's certificate storage cannot be read (${code}).` };
    }
    issuers = [];
  }
  let best: X509Certificate | undefined;
  for (const issuer of issuers) {
    const pem = await readFile(
      join(storage, "certificates", issuer, hostname, `${hostname}.crt`),
      "utf8",
    ).catch(() => undefined);
    if (!pem) continue;
    const certificate = new X509Certificate(pem);
    if (!best || Date.parse(certificate.validTo) > Date.parse(best.validTo)) best = certificate;
  }
  if (!best) {
    return {
      state: "pending",
      ...none,
      message: served
        ? "No certificate yet: Caddy obtains one on demand, at the first HTTPS request for this name."
        : "No certificate: Caddy obtains one only for a name the platform serves, so once the domain is verified.",
    };
  }
  const notAfter = new Date(best.validTo).toISOString();
  const issuer = /(?:^|\n)CN=([^\n]*)/.exec(best.issuer)?.[1] ?? best.issuer;
  return Date.parse(best.validTo) > now
    ? {
        state: "issued",
        issuer,
        notAfter,
        message: `Caddy holds a certificate from ${issuer} until ${notAfter}.`,
      }
    : {
        state: "expired",
        issuer,
        notAfter,
        message: `Caddy's certificate expired at ${notAfter}; it obtains a new one at the next HTTPS request for this name.`,
      };
}
