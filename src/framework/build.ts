import { bundleRender } from "./bundle.ts";
import { snapshotCms } from "./cms.ts";
import { BuildFailure, buildError, diagnostic, sortDiagnostics } from "./diagnostics.ts";
import { firstH1, renderDocument } from "./document.ts";
import { collectForms, guardForms } from "./forms.ts";
import { bundleFunctions } from "./functions/bundle-function.ts";
import { resolveLimits } from "./limits.ts";
import { compileMarkdown } from "./markdown-modules.ts";
import { publicAssets, textAsset } from "./public-files.ts";
import { limitDiagnostic, problemDiagnostic } from "./render-diagnostics.ts";
import { discoverRoutes, isValidParam, outputPath } from "./routes.ts";
import { sandboxPool } from "./sandbox/pool.ts";
import type { SandboxOutcome } from "./sandbox/protocol.ts";
import { computeSourceHash, sha256Hex } from "./source-hash.ts";
import { BundleMap } from "./stack-map.ts";
import { bundleStyles } from "./styles.ts";
import type { BuildInput, BuildResult, BuiltAsset, BuiltPage, Diagnostic } from "./types.ts";

/**
 * Builds a website draft into static pages and assets.
 *
 * Steps: snapshot the CMS and hash the input; find the routes of `pages/`; compile Markdown pages;
 * bundle the modules (esbuild, in this process: parsing only) and the stylesheet; render every page
 * in the sandbox (QuickJS in a worker thread, with time, memory and stack limits); wrap each page in
 * its HTML document; record the forms. The server functions of `functions/` are bundled beside the pages. Any source error fails the whole build with
 * `ApiError("validation")` whose `details` list every `{file, line, column, message}`.
 */
export async function buildSite(input: BuildInput): Promise<BuildResult> {
  try {
    return await build(input);
  } catch (error) {
    if (error instanceof BuildFailure) throw buildError(error.diagnostics);
    throw error;
  }
}

/** Fails the build when there are errors. */
function check(errors: readonly Diagnostic[]): void {
  if (errors.length > 0) throw new BuildFailure([...errors]);
}

async function build(input: BuildInput): Promise<BuildResult> {
  const limits = resolveLimits(input.limits);
  const files = input.files;
  check(checkPaths(files));
  const snapshot = await snapshotCms(input.cms, input.mode);
  const sourceHash = computeSourceHash(files, snapshot, input.mode);
  const errors: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];

  const found = discoverRoutes(files.keys());
  errors.push(...found.errors);
  warnings.push(...found.warnings);
  if (found.routes.length === 0 && found.errors.length === 0) {
    errors.push(
      diagnostic("pages/index.tsx", "the website has no pages: add pages/index.tsx (or pages/index.md)."),
    );
  }
  const markdown = await compileMarkdown(files, input.organizationId);
  errors.push(...markdown.errors);
  const publicFiles = publicAssets(files);
  errors.push(...publicFiles.errors);
  check(errors);

  const [bundle, styles, functions] = await Promise.all([
    bundleRender(files, found.routes, markdown.modules),
    bundleStyles(files),
    bundleFunctions(files),
  ]);
  errors.push(...bundle.errors, ...styles.errors, ...functions.errors);
  warnings.push(...bundle.warnings, ...styles.warnings, ...functions.warnings);
  check(errors);
  if (!("js" in bundle)) throw new BuildFailure([diagnostic("(build)", "the bundle is empty.")]);

  const outcome: SandboxOutcome = await sandboxPool().run(
    { script: bundle.js, data: JSON.stringify(snapshot), ...limits },
    { owner: input.organizationId },
  );
  const map = new BundleMap(bundle.map);
  for (const problem of outcome.problems) errors.push(problemDiagnostic(problem, map, files, limits));
  if (outcome.limit) errors.push(limitDiagnostic(outcome.limit, map, limits));
  if (outcome.crash)
    errors.push(diagnostic("(render)", `the render sandbox stopped unexpectedly: ${outcome.crash}`));
  for (const line of outcome.logs) warnings.push(diagnostic("(console)", line));
  check(errors);

  const assets: BuiltAsset[] = [];
  const css = [styles.css, bundle.css].filter((text) => text.trim() !== "").join("\n");
  let stylesheet: string | undefined;
  if (css) {
    const path = `_assets/styles-${sha256Hex(css).slice(0, 12)}.css`;
    assets.push(textAsset(path, css));
    stylesheet = `/${path}`;
  }
  const favicon = ["favicon.svg", "favicon.ico"].find((name) => files.has(`public/${name}`));
  const shell = {
    mode: input.mode,
    ...(stylesheet ? { stylesheet } : {}),
    ...(favicon ? { favicon: `/${favicon}` } : {}),
  };

  const pages: BuiltPage[] = [];
  const bySource = new Map<string, string>();
  for (const page of outcome.pages) {
    const segments = page.route === "/404.html" ? [] : page.route.split("/").filter(Boolean);
    if (!segments.every(isValidParam)) {
      errors.push(diagnostic(page.file, `the route ${page.route} is not a valid URL path.`));
      continue;
    }
    const path = outputPath(page.route);
    const other = bySource.get(path);
    if (other) {
      errors.push(diagnostic(page.file, `the route ${page.route} is also rendered by ${other}; keep one.`));
      continue;
    }
    bySource.set(path, page.file);
    if (!page.head.title && !firstH1(page.html)) {
      warnings.push(
        diagnostic(
          page.file,
          `${page.route} has no title: export const head = { title: "…" } (or render an <h1>).`,
        ),
      );
    }
    pages.push({
      route: page.route,
      path,
      source: page.file,
      html: renderDocument(page.html, page.head, shell),
    });
  }
  for (const asset of publicFiles.assets) {
    const page = bySource.get(asset.path);
    if (page) errors.push(diagnostic(`public/${asset.path}`, `${page} renders the same path; keep one.`));
    else assets.push(asset);
  }
  check(errors);

  const { forms, problems } = collectForms(pages);
  if (forms.length > 0) for (const page of pages) page.html = guardForms(page.html);
  const sourceOf = new Map(pages.map((page) => [page.route, page.source]));
  for (const problem of problems)
    warnings.push(diagnostic(sourceOf.get(problem.route) ?? "(render)", problem.message));
  return {
    pages,
    assets,
    forms,
    functions: functions.functions,
    warnings: sortDiagnostics(warnings),
    sourceHash,
  };
}

/** Draft paths must be relative, normalized and text. */
function checkPaths(files: ReadonlyMap<string, string>): Diagnostic[] {
  const errors: Diagnostic[] = [];
  for (const [path, text] of files) {
    const segments = path.split("/");
    if (
      path === "" ||
      path.startsWith("/") ||
      path.includes("\\") ||
      path.includes("\0") ||
      segments.some((s) => s === "" || s === "." || s === "..")
    ) {
      errors.push(
        diagnostic(
          path,
          "not a normalized relative path (no leading /, no . or .. segments, no backslashes).",
        ),
      );
    } else if (typeof text !== "string") {
      errors.push(diagnostic(path, "the file's content is not text."));
    }
  }
  return errors;
}
