import { diagnostic } from "./diagnostics.ts";
import type { Diagnostic } from "./types.ts";

/** A route file of `pages/`: static (one page) or dynamic (`[param]` segments, one page per path). */
export interface RouteFile {
  /** Draft path (`pages/blog/[slug].tsx`). */
  file: string;
  /** URL segments; dynamic ones keep their brackets (`["blog", "[slug]"]`). */
  segments: string[];
  /** Names of the dynamic segments, in order. */
  params: string[];
  /** `pages/404.tsx` or `pages/404.md`: rendered once to `404.html`. */
  notFound: boolean;
}

const PAGE_EXTENSIONS = [".tsx", ".md"] as const;
const STATIC_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._~-]*$/;
const DYNAMIC_SEGMENT = /^\[([A-Za-z_][A-Za-z0-9_]*)\]$/;
/** First URL segments the platform serves itself; no page or public file may use them. */
export const RESERVED_PREFIXES = ["_assets", "_service", "_framework", "_sitewright"] as const;

/** The route files of a draft, with diagnostics for names that cannot be routes. */
export function discoverRoutes(paths: Iterable<string>): {
  routes: RouteFile[];
  errors: Diagnostic[];
  warnings: Diagnostic[];
} {
  const routes: RouteFile[] = [];
  const errors: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  const byPattern = new Map<string, string>();
  for (const file of [...paths].sort()) {
    if (!file.startsWith("pages/")) continue;
    const rest = file.slice("pages/".length).split("/");
    if (rest.some((segment) => segment.startsWith("_"))) continue; // private: components next to pages
    const extension = PAGE_EXTENSIONS.find((ext) => file.endsWith(ext));
    if (!extension) {
      if (/\.(html?|jsx|js|mdx)$/.test(file)) {
        warnings.push(
          diagnostic(
            file,
            "not a route: pages are .tsx or .md files (put files served as they are in public/).",
          ),
        );
      }
      continue;
    }
    const last = rest.pop()!.slice(0, -extension.length);
    const segments = last === "index" ? rest : [...rest, last];
    const notFound = segments.length === 1 && segments[0] === "404";
    const params: string[] = [];
    let valid = true;
    for (const segment of segments) {
      const dynamic = DYNAMIC_SEGMENT.exec(segment);
      if (dynamic) {
        if (params.includes(dynamic[1]!)) {
          errors.push(diagnostic(file, `the parameter [${dynamic[1]}] appears twice in this route.`));
          valid = false;
        }
        params.push(dynamic[1]!);
      } else if (segment.includes("[") || segment.includes("]")) {
        errors.push(
          diagnostic(
            file,
            segment.startsWith("[...")
              ? `catch-all segments like ${segment} are not supported; use one [param] per URL segment.`
              : `'${segment}': a dynamic segment is a whole file or folder name like [slug].`,
          ),
        );
        valid = false;
      } else if (!STATIC_SEGMENT.test(segment)) {
        errors.push(
          diagnostic(
            file,
            `'${segment}' cannot be part of a URL: use letters, digits, '-', '_', '.' and '~', starting with a letter or digit.`,
          ),
        );
        valid = false;
      }
    }
    const first = segments[0];
    if (first && (RESERVED_PREFIXES as readonly string[]).includes(first)) {
      errors.push(diagnostic(file, `/${first}/ is reserved for the platform; choose another folder name.`));
      valid = false;
    }
    if (!valid) continue;
    const pattern = routePattern(segments, notFound);
    const previous = byPattern.get(pattern);
    if (previous) {
      errors.push(
        diagnostic(file, `${previous} already renders the route ${pattern}; keep one of the two files.`),
      );
      continue;
    }
    byPattern.set(pattern, file);
    routes.push({ file, segments, params, notFound });
  }
  return { routes, errors, warnings };
}

/** The URL of a route with dynamic segments left in brackets: `/`, `/about/`, `/blog/[slug]/`, `/404.html`. */
export function routePattern(segments: readonly string[], notFound = false): string {
  if (notFound) return "/404.html";
  return segments.length === 0 ? "/" : `/${segments.join("/")}/`;
}

/** A concrete route's output file: `/` → `index.html`, `/a/b/` → `a/b/index.html`, `/404.html` → `404.html`. */
export function outputPath(route: string): string {
  if (route === "/404.html") return "404.html";
  return `${route.slice(1)}index.html`;
}

/**
 * Whether a value may fill a dynamic segment. It becomes a folder name of the output and a URL
 * segment as it is, so it must be a plain name (same rule as static segments, up to 200 characters).
 */
export function isValidParam(value: unknown): value is string {
  return typeof value === "string" && value.length <= 200 && STATIC_SEGMENT.test(value);
}
