import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonSchemasOf } from "../../src/kernel/json-schema.ts";
import { discoveryNames } from "../../src/mcp/discovery.ts";
import { tools } from "../../tools/index.ts";

// Every tool description, every schema `.describe()` text and every error suggestion must name only tools that
// exist: an agent follows these names literally, so a renamed tool left behind in prose is a dead end.

type Text = { where: string; text: string };

const root = join(import.meta.dirname, "..", "..");
const ids: ReadonlySet<string> = new Set(tools.map((tool) => tool.operationId));
const mcpNames = new Set([...tools.map((tool) => tool.mcpName), ...discoveryNames]);
const prefixes = [...new Set(tools.map((tool) => tool.operationId.replace(/\..*/, "")))];
const snakePrefixes = prefixes.map((p) => p.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
/** `group.name`, `group.sub.name` with a registered group prefix; a trailing `(` is page code (`cms.list("blog")`). */
const idPattern = new RegExp(`\\b(?:${prefixes.join("|")})(?:\\.[a-z][A-Za-z0-9]*)+\\b(?!\\()`, "g");
/** `group_name` with a registered group prefix (or the meta-tools' `tools_`), snake case or with a camel-case group (`websiteSourceCode_head_publish`, which no client can call). */
const namePattern = new RegExp(
  `\\b(?:${[...new Set([...snakePrefixes, ...prefixes, "tools"])].join("|")})_[A-Za-z0-9_]*[A-Za-z0-9]\\b`,
  "g",
);
/** File names in prose (`docs/cms.md`) look like operation ids but are not. */
const fileExtension = /\.(?:md|json|ts|tsx|js|css|html|txt)$/;

/** Collects every `description` string of a JSON Schema and every enum value (closed-set values are not tools). */
function walk(node: unknown, where: string, texts: Text[], enums: Set<string>): void {
  if (Array.isArray(node)) for (const child of node) walk(child, where, texts, enums);
  else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "description" && typeof value === "string") texts.push({ where, text: value });
      else if (key === "enum" && Array.isArray(value)) for (const v of value) enums.add(String(v));
      else if (key === "const" && typeof value === "string") enums.add(value);
      else walk(value, where, texts, enums);
    }
  }
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The string or template literal after each `suggestion:` in the source of `src/` and `tools/`. */
function suggestionTexts(): Text[] {
  const literal = /suggestion:\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|`((?:[^`\\]|\\.)*)`)/g;
  const texts: Text[] = [];
  for (const file of [...sourceFiles(join(root, "src")), ...sourceFiles(join(root, "tools"))]) {
    for (const match of readFileSync(file, "utf8").matchAll(literal)) {
      texts.push({ where: file.slice(root.length + 1), text: match[1] ?? match[2] ?? match[3] ?? "" });
    }
  }
  return texts;
}

/** The tool references in a text that name no registered operation. */
function unknownReferences(text: string, closedValues: ReadonlySet<string> = new Set()): string[] {
  const unknown: string[] = [];
  for (const [id] of text.matchAll(idPattern)) {
    if (!ids.has(id) && !fileExtension.test(id)) unknown.push(id);
  }
  for (const [name] of text.matchAll(namePattern)) {
    if (!mcpNames.has(name) && !closedValues.has(name)) unknown.push(name);
  }
  for (const [, marker] of text.matchAll(/\{\{([A-Za-z0-9.]+)\}\}/g)) {
    if (marker && !ids.has(marker)) unknown.push(`{{${marker}}}`);
  }
  return unknown;
}

function registryTexts(): { texts: Text[]; enums: Set<string> } {
  const texts: Text[] = [];
  const enums = new Set<string>();
  for (const tool of tools) {
    texts.push({ where: `${tool.operationId} description`, text: tool.description });
    const { input, output } = jsonSchemasOf(tool);
    walk(input, `${tool.operationId} input schema`, texts, enums);
    walk(output, `${tool.operationId} output schema`, texts, enums);
  }
  return { texts, enums };
}

describe("tool references in prose", () => {
  const { texts, enums } = registryTexts();
  const suggestions = suggestionTexts();

  it("collects the texts it checks (descriptions, schema descriptions, suggestions)", () => {
    expect(texts.length).toBeGreaterThan(tools.length * 3);
    expect(suggestions.length).toBeGreaterThan(100);
    const referencing = [...texts, ...suggestions].filter(
      ({ text }) => text.match(idPattern) || text.match(namePattern),
    );
    expect(referencing.length).toBeGreaterThan(tools.length);
  });

  it("finds a reference to a tool that does not exist, in every spelling", () => {
    expect(unknownReferences("Next: call websites_publish_now, then cms_items_list.")).toEqual([
      "websites_publish_now",
    ]);
    expect(unknownReferences("Call websites.publishNow or cms.items.list.")).toEqual(["websites.publishNow"]);
    expect(unknownReferences("Call {{websites.publishNow}}.")).toEqual([
      "websites.publishNow",
      "{{websites.publishNow}}",
    ]);
    expect(unknownReferences("Then publish with websiteSourceCode_head_publish.")).toEqual([
      "websiteSourceCode_head_publish",
    ]);
    expect(unknownReferences('Pages read cms.list("blog"); see docs/cms.md. Then tools_search.')).toEqual([]);
  });

  it("every tool description and schema description names only registered tools", () => {
    const offenders = texts.flatMap(({ where, text }) =>
      unknownReferences(text, enums).map((reference) => `${where}: ${reference}`),
    );
    expect(offenders).toEqual([]);
  });

  it("every error suggestion in src/ and tools/ names only registered tools", () => {
    const offenders = suggestions.flatMap(({ where, text }) =>
      unknownReferences(text, enums).map((reference) => `${where}: ${reference}`),
    );
    expect(offenders).toEqual([]);
  });
});
