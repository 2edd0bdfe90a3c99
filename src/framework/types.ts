/** Whether a build serves the live site (published CMS values) or an editor's preview (draft values). */
export type BuildMode = "publish" | "preview";

/**
 * One source error or warning of a build, positioned in the draft. `line` and `column` are 1-based;
 * both are 0 when the problem has no position (a limit hit outside user code, a missing file).
 */
export interface Diagnostic {
  file: string;
  line: number;
  column: number;
  message: string;
}

/** One item of a CMS collection as the render sees it. */
export interface CmsItem {
  /** URL-safe identifier; a `collection` route renders one page per item at `…/[param]` = slug. */
  slug: string;
  /** The item's field values (published values in publish mode, draft values in preview). JSON only. */
  values: Record<string, unknown>;
  id?: string;
  createdAt?: string;
  updatedAt?: string;
  publishedAt?: string | null;
}

/**
 * Where a build reads CMS content. The CMS service implements it; the build takes a snapshot of
 * every collection before rendering, so user code only ever sees plain data.
 */
export interface CmsProvider {
  /** Names of the website's collections. */
  collections(): Promise<readonly string[]> | readonly string[];
  /** Items of one collection, in the order pages should list them: only published items in publish mode. */
  list(collection: string, mode: BuildMode): Promise<readonly CmsItem[]> | readonly CmsItem[];
}

/** The CMS data handed to a render: collection name → items. */
export type CmsSnapshot = Record<string, CmsItem[]>;

/** Resource limits of the sandboxed render. Every field is optional; see `defaultLimits`. */
export interface SandboxLimits {
  /** Wall time for evaluating the bundle, planning routes and rendering every page. */
  timeLimitMs?: number;
  /** Heap available to website code (the sandbox's WebAssembly memory above the engine's own). */
  memoryLimitBytes?: number;
  /** JavaScript stack of the sandbox (deep recursion fails past it). */
  stackSizeBytes?: number;
  /** Most pages one build may produce (dynamic routes included). */
  maxPages?: number;
  /** Largest HTML of one rendered page. */
  maxPageBytes?: number;
}

/** What `buildSite` builds from. */
export interface BuildInput {
  /** The draft: site-relative path (`pages/index.tsx`) → text. */
  files: ReadonlyMap<string, string>;
  /**
   * The organization the website belongs to: its render waits in that organization's queue of the shared build
   * sandbox (fair across organizations; see `SandboxPool`).
   */
  organizationId: string;
  cms?: CmsProvider;
  mode: BuildMode;
  limits?: SandboxLimits;
}

/** One rendered page. */
export interface BuiltPage {
  /** URL path, with a trailing slash for directories (`/`, `/about/`, `/blog/hello/`); `/404.html` for the not-found page. */
  route: string;
  /** Output file (`index.html`, `blog/hello/index.html`, `404.html`). */
  path: string;
  /** The draft file that rendered it. */
  source: string;
  html: string;
}

/** One static file of the output: the hashed stylesheet or a copy of a `public/` file. */
export interface BuiltAsset {
  /** Output path without a leading slash (`_assets/styles-1a2b3c4d5e6f.css`, `robots.txt`). */
  path: string;
  contentType: string;
  body: Uint8Array;
  /** Hex SHA-256 of `body`. */
  sha256: string;
}

/** One field of a form: its name, input type (`text`, `email`, `file`, `textarea`, `select`, …) and `required`. */
export interface FormInput {
  name: string;
  type: string;
  required: boolean;
}

/** A form found in the rendered HTML: `<form action="/_service/forms/<name>" method="post">`. */
export interface BuiltForm {
  name: string;
  /** Names of its fields, in document order, without duplicates. */
  fields: string[];
  /** The same fields with their input types and whether each is required. */
  inputs: FormInput[];
  /** Route of the page the form is on. */
  page: string;
}

/** One server function bundled by a build: `functions/<name>.ts` and what it imports, for the function sandbox. */
export interface BuiltFunction {
  name: string;
  /** The draft file (`functions/<name>.ts` or `.js`). */
  file: string;
  /** The sandbox script (an IIFE that sets `__sw_function`). */
  js: string;
  /** Source map of `js` (JSON); draft files appear as `sw:<path>`. */
  map: string;
}

/** Everything a build produced. Failures throw `ApiError("validation", …, { details: Diagnostic[] })`. */
export interface BuildResult {
  pages: BuiltPage[];
  assets: BuiltAsset[];
  forms: BuiltForm[];
  /** The server functions, bundled (a function that does not bundle fails the build). */
  functions: BuiltFunction[];
  warnings: Diagnostic[];
  /** SHA-256 over the framework version, the mode, the sorted files and the CMS snapshot. */
  sourceHash: string;
}
