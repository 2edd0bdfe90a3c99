import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");

function sourceFiles(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts"))
    .map((name) => join(root, folder, name));
}

const files = [...sourceFiles("src"), ...sourceFiles("tools")];

/** Each file's imports among `files`: static, type-only, re-exports and dynamic `import()` alike. */
function importGraph(): Map<string, string[]> {
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
      const targets = importedFiles
        .map((ref) => ref.fileName)
        .filter((spec) => spec.startsWith("."))
        .map((spec) => resolve(dirname(file), spec))
        .filter((target) => known.has(target));
      return [file, [...new Set(targets)]];
    }),
  );
}

/** Strongly connected components of more than one file (or a file importing itself): the import cycles. */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)?.includes(v)) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

/**
 * Cycles that exist and are accepted for now, each with why. A new cycle fails; so does an entry here that no
 * longer matches (remove it when its cycle is broken).
 */
const knownCycles: Record<string, string> = {
  "src/kernel/context.ts src/kernel/define-tool.ts src/kernel/json-schema.ts src/kernel/platform.ts src/kernel/registry.ts src/observability/log.ts src/observability/metrics.ts src/rest/body.ts src/rest/http.ts":
    "types only: a Platform holds the registry of tools, the metrics and the request log, whose modules take the Platform",
  "src/db/database.ts src/db/dialects/memory-buckets.ts src/db/dialects/pg.ts src/db/dialects/sqlite.ts":
    "types only: the dialect openers return the Database interface declared beside openDatabase",
  "src/db/stores/cms-index-items.ts src/db/stores/cms-index-writes.ts src/db/stores/cms-index.ts src/db/stores/cms-order.ts src/db/stores/cms-query.ts src/db/stores/cms.ts":
    "the CMS store's parts share its record types, declared in cms.ts",
  "src/blobs/index.ts src/blobs/s3.ts":
    "types only: the S3 store implements the BlobStore interface of index.ts",
  "src/services/cms/items.ts src/services/cms/organize.ts": "bulk and ordering helpers call each other",
  "src/db/schema/pg.ts":
    "types only: the schema checks its own exports (`typeof self`) against the table list",
  "src/db/schema/sqlite.ts":
    "types only: the schema checks its own exports (`typeof self`) against the table list",
};

/** Modules besides the CLI that still read the environment, with why; the list may only shrink. */
const envReaders: Record<string, string> = {
  "src/accounts/passwords.ts": "the scrypt cost, lowered for tests by SITEWRIGHT_SCRYPT_LOG2N",
  "src/blobs/s3.ts": "the standard AWS variables (region, endpoint, credentials) the S3 client reads anyway",
  "src/hosting/preview-token.ts": "the default of the preview secret, SITEWRIGHT_PREVIEW_SECRET",
};

describe("architecture", () => {
  it("has no import cycles in src/ and tools/ (type-only imports included) beyond the known ones", () => {
    const found = cycles(importGraph()).map((component) =>
      component.map((file) => relative(root, file)).join(" "),
    );
    const unknown = found.filter((cycle) => !(cycle in knownCycles));
    expect(unknown, "new import cycles").toEqual([]);
    expect(
      Object.keys(knownCycles).filter((cycle) => !found.includes(cycle)),
      "stale entries",
    ).toEqual([]);
  });

  it("finds a cycle when there is one (the detector itself)", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["a"]],
    ]);
    expect(cycles(graph)).toEqual([["a", "b", "c"]]);
    expect(cycles(new Map([["a", ["a"]]]))).toEqual([["a"]]);
  });

  it("keeps files within their size budget: tools ≤ 150 lines, infrastructure ≤ 400", () => {
    // Exceptions, with the reason; keep this list short.
    const exceptions: Record<string, string> = {
      "src/hosting/index.ts":
        "the hosting request handler grew with assets, forms and analytics on live sites; split it by concern",
    };
    const over = files.flatMap((file) => {
      const name = relative(root, file);
      const lines = readFileSync(file, "utf8").split("\n").length - 1;
      const budget = name.startsWith("tools/") ? 150 : 400;
      return lines > budget && !(name in exceptions) ? [`${name}: ${lines} lines (budget ${budget})`] : [];
    });
    expect(over).toEqual([]);
  });

  it("reads the environment only in the entry points (the CLI); everything else receives configuration", () => {
    const readers = files
      .filter((file) => /process\.env\b(?!\.NODE_ENV)/.test(readFileSync(file, "utf8")))
      .map((file) => relative(root, file))
      .filter((name) => !name.startsWith("src/cli"));
    expect(readers.sort()).toEqual(Object.keys(envReaders).sort());
  });
});
