/**
 * Where a request path points inside a deployment. Outputs are looked up by exact path in the deployment's
 * own records (never on a file system), so nothing outside a deployment can be named; on top of that, any
 * path whose decoded segments could mean something else is refused outright: `.` and `..` segments (also
 * when percent-encoded), encoded separators (`%2F`, `%5C`), backslashes, NUL and other control characters,
 * empty segments (`//`), and malformed percent-encoding.
 */
export type PathTarget =
  /** Serve the output `file`; when it is absent and `directory` is given, that directory's index answers with a redirect. */
  { kind: "file"; file: string; directoryIndex?: string } | { kind: "invalid" };

/** The longest request path considered (anything longer cannot name an output). */
const MAX_PATH = 2048;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused.
const FORBIDDEN = /[\u0000-\u001f\u007f\\]/;

/**
 * Maps a URL pathname (as received, percent-encoded) to an output path: `/` → `index.html`,
 * `/about/` → `about/index.html`, `/robots.txt` → `robots.txt` (with `about/index.html` as the
 * directory index to redirect to when `/about` names no file).
 */
export function targetOf(pathname: string): PathTarget {
  if (!pathname.startsWith("/") || pathname.length > MAX_PATH) return { kind: "invalid" };
  if (pathname === "/") return { kind: "file", file: "index.html" };
  const raw = pathname.slice(1).split("/");
  const directory = raw[raw.length - 1] === "";
  if (directory) raw.pop();
  const segments: string[] = [];
  for (const segment of raw) {
    if (segment === "") return { kind: "invalid" };
    let decoded: string;
    try {
      decoded = segment.includes("%") ? decodeURIComponent(segment) : segment;
    } catch {
      return { kind: "invalid" };
    }
    if (decoded === "." || decoded === ".." || decoded.includes("/") || FORBIDDEN.test(decoded)) {
      return { kind: "invalid" };
    }
    segments.push(decoded);
  }
  const path = segments.join("/");
  return directory
    ? { kind: "file", file: `${path}/index.html` }
    : { kind: "file", file: path, directoryIndex: `${path}/index.html` };
}
