import { expect } from "vitest";
import { buildSite } from "../../../src/framework/build.ts";
import type {
  BuildInput,
  BuildResult,
  CmsItem,
  CmsProvider,
  Diagnostic,
} from "../../../src/framework/types.ts";
import { ApiError } from "../../../src/kernel/errors.ts";

/** A draft from an object of path → text. */
export function draft(files: Record<string, string>): Map<string, string> {
  return new Map(Object.entries(files));
}

/** A CMS provider over fixed data; `list` answers the same in both modes unless `drafts` is given. */
export function fakeCms(
  published: Record<string, CmsItem[]>,
  drafts?: Record<string, CmsItem[]>,
): CmsProvider {
  return {
    collections: () => Object.keys({ ...published, ...drafts }),
    list: (collection, mode) => (mode === "preview" && drafts ? drafts : published)[collection] ?? [],
  };
}

/** Builds in publish mode with the given files (as one organization unless `extra` names another). */
export function build(
  files: Record<string, string> | Map<string, string>,
  extra: Partial<BuildInput> = {},
): Promise<BuildResult> {
  return buildSite({
    files: files instanceof Map ? files : draft(files),
    organizationId: "org_test",
    mode: "publish",
    ...extra,
  });
}

/** Builds and expects a `validation` failure; returns its diagnostics. */
export async function buildErrors(
  files: Record<string, string> | Map<string, string>,
  extra: Partial<BuildInput> = {},
): Promise<Diagnostic[]> {
  const error = await build(files, extra).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, "the build should fail").toBeInstanceOf(ApiError);
  const api = error as ApiError;
  expect(api.kind).toBe("validation");
  expect(api.status).toBe(400);
  const details = api.options.details as Diagnostic[];
  expect(Array.isArray(details)).toBe(true);
  for (const d of details) {
    expect(Object.keys(d).sort()).toEqual(["column", "file", "line", "message"]);
  }
  return details;
}

/** The HTML of the page at a route. */
export function page(result: BuildResult, route: string): string {
  const found = result.pages.find((p) => p.route === route);
  if (!found) throw new Error(`no page ${route}; routes: ${result.pages.map((p) => p.route).join(", ")}`);
  return found.html;
}

/** Text of an asset. */
export function assetText(result: BuildResult, path: string): string {
  const found = result.assets.find((a) => a.path === path);
  if (!found) throw new Error(`no asset ${path}; assets: ${result.assets.map((a) => a.path).join(", ")}`);
  return new TextDecoder().decode(found.body);
}

/** A minimal page component. */
export const simplePage = (text = "Hello") =>
  `export const head = { title: ${JSON.stringify(text)} };\nexport default function Page() {\n  return <main><h1>${text}</h1></main>;\n}\n`;
