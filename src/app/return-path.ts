/**
 * The one place a URL the visitor supplied becomes a redirect target (`next` of sign-in and sign-up, return URLs of
 * the hosted billing pages): the app-relative path to go to, or "/" when it would leave the app.
 *
 * The raw string is never judged by its shape. It is resolved against the app's origin the way a browser resolves
 * it (dot segments removed, `\` read as `/`, tabs and newlines dropped), the result must be on that origin, and its
 * path+search+hash is what is returned, after checking that this path, resolved again as the browser will resolve
 * the `Location` header, stays on the origin too: `/.//evil.example` normalizes to `//evil.example`, a
 * scheme-relative URL of another host, and is refused.
 */
export function safeReturnPath(appUrl: string, raw: string | null | undefined): string {
  if (!raw || raw.length > 2000 || CONTROL_OR_BACKSLASH.test(raw)) return "/";
  const origin = new URL(appUrl).origin;
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return "/";
  }
  if (url.origin !== origin) return "/";
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (!path.startsWith("/") || path.startsWith("//") || new URL(path, origin).origin !== origin) return "/";
  return path;
}

// Control characters (tabs and newlines are dropped by URL parsers) and backslashes (read as `/`) never belong in
// a return path the app produced itself; a URL carrying them is refused before it is parsed.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_OR_BACKSLASH = /[\u0000-\u001f\u007f\\]/;
