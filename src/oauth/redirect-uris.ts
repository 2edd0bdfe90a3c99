/** Hosts of loopback redirects: any port is accepted for these (RFC 8252 §7.3). */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

/** Schemes that are never redirect targets. */
const FORBIDDEN_SCHEMES = new Set([
  "javascript:",
  "data:",
  "file:",
  "vbscript:",
  "blob:",
  "about:",
  "ftp:",
  "ws:",
  "wss:",
  "mailto:",
  "filesystem:",
]);

function parse(uri: string): URL | undefined {
  try {
    return new URL(uri);
  } catch {
    return undefined;
  }
}

export function isLoopbackRedirect(uri: string): boolean {
  const url = parse(uri);
  return url !== undefined && url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);
}

/**
 * Why a redirect URI may not be registered, or undefined when it may: https anywhere, http only on loopback,
 * or a private-use scheme of a native app (`cursor://`, `vscode://`, `com.example.app:/cb`); no fragments.
 */
export function redirectUriProblem(uri: unknown): string | undefined {
  if (typeof uri !== "string" || uri.length === 0 || uri.length > 2000) return "must be a URI string";
  const url = parse(uri);
  if (!url) return `'${uri}' is not an absolute URI`;
  if (url.hash || uri.includes("#")) return `'${uri}' must not contain a fragment`;
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:") {
    return LOOPBACK_HOSTS.has(url.hostname)
      ? undefined
      : `'${uri}' uses http on a non-loopback host; use https, or http on 127.0.0.1, [::1] or localhost`;
  }
  if (FORBIDDEN_SCHEMES.has(url.protocol))
    return `'${uri}' uses the scheme ${url.protocol}, which is not allowed`;
  return undefined; // a private-use scheme (RFC 8252 §7.1)
}

/**
 * Whether `requested` matches one of the client's registered redirect URIs: exactly, or, for http loopback
 * redirects, exactly apart from the port (native apps listen on an ephemeral port).
 */
export function matchesRegisteredRedirect(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  if (!isLoopbackRedirect(requested)) return false;
  const want = withoutPort(requested);
  return registered.some((uri) => isLoopbackRedirect(uri) && withoutPort(uri) === want);
}

function withoutPort(uri: string): string {
  const url = new URL(uri);
  url.port = "";
  return url.href;
}

/** The host the consent page shows for a redirect URI (the scheme for private-use schemes). */
export function redirectHostOf(uri: string): string {
  const url = parse(uri);
  if (!url) return uri;
  if (url.protocol === "http:" || url.protocol === "https:") return url.host;
  return `${url.protocol}//${url.host}`;
}

/** The CSP `form-action` source that lets the consent form's redirect reach `uri`. */
export function formActionSourceOf(uri: string): string {
  const url = new URL(uri);
  return url.protocol === "http:" || url.protocol === "https:" ? url.origin : url.protocol;
}
