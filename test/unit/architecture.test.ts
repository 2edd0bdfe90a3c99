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

describe("architecture", () => {
  it("has no import cycles in src/ and tools/ (type-only and dynamic imports included)", () => {
    const found = cycles(importGraph()).map((component) =>
      component.map((file) => relative(root, file)).join(" "),
    );
    expect(found, "import cycles").toEqual([]);
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
    const exceptions: Record<string, string> = {};
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
    expect(readers).toEqual([]);
  });
});
