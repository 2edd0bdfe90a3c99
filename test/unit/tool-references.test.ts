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
/** Names an agent can call over MCP: a tool kept off MCP (billing, accounts) is no next step there. */
const mcpNames = new Set([
  ...tools.filter((tool) => tool.mcp).map((tool) => tool.mcpName),
  ...discoveryNames,
]);
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

/** A string, or a template's text parts and `${NAME}` placeholders: every literal of a piece of source. */
const literal = /"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|`((?:[^`\\]|\\.)*)`/g;

/** The source of the expression starting at `start`: up to the `,`, `;` or closing bracket that ends it. */
function expressionAt(source: string, start: number): string {
  let depth = 0;
  for (let i = start; i < source.length; i++) {
    const c = source[i]!;
    if (c === '"' || c === "'" || c === "`") {
      for (i++; i < source.length && source[i] !== c; i++) if (source[i] === "\\") i++;
    } else if ("([{".includes(c)) depth++;
    else if (")]}".includes(c) && depth-- === 0) return source.slice(start, i);
    else if ((c === "," || c === ";") && depth === 0) return source.slice(start, i);
  }
  return source.slice(start);
}

/** The texts an expression can produce: its literals, and those of the constants it names (`${FIX} Or …`, `A + B`). */
function textsOf(
  expression: string,
  constants: ReadonlyMap<string, string>,
  seen = new Set<string>(),
): string[] {
  const texts = [...expression.matchAll(literal)].map((m) => m[1] ?? m[2] ?? m[3] ?? "");
  const names = expression
    .replace(literal, (m) => m.replace(/^[^$]*|\}[^$]*/g, "}"))
    .match(/[A-Za-z_$][\w$]*/g);
  for (const name of names ?? []) {
    const value = constants.get(name);
    if (value === undefined || seen.has(name)) continue;
    seen.add(name);
    texts.push(...textsOf(value, constants, seen));
  }
  return texts;
}

/**
 * Every text an error suggestion in `src/` and `tools/` is built from: after `suggestion:` or `suggestion =`, every
 * literal of the expression, however it is composed (`+`, templates, a conditional), and the literals of the
 * upper-case constants it names (declared in any file: `suggestion: PATTERN_SUGGESTION`).
 */
function suggestionTexts(files: readonly { path: string; source: string }[]): Text[] {
  const constants = new Map<string, string>();
  for (const { source } of files) {
    for (const match of source.matchAll(/\bconst\s+([A-Z][A-Z0-9_]*)\s*=\s*/g)) {
      constants.set(match[1]!, expressionAt(source, match.index + match[0].length));
    }
  }
  const texts: Text[] = [];
  for (const { path, source } of files) {
    for (const match of source.matchAll(/\bsuggestion\s*[:=]\s*/g)) {
      const expression = expressionAt(source, match.index + match[0].length);
      for (const text of textsOf(expression, constants)) texts.push({ where: path, text });
    }
  }
  return texts;
}

/** The code of `src/` and `tools/`, without comments (their prose is no suggestion and may hold a stray quote). */
const sourceTree = () =>
  [...sourceFiles(join(root, "src")), ...sourceFiles(join(root, "tools"))].map((file) => ({
    path: file.slice(root.length + 1),
    source: readFileSync(file, "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/(^|\s)\/\/.*$/gm, "$1"),
  }));

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
  const suggestions = suggestionTexts(sourceTree());

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

  it("reads suggestions built from pieces: concatenation, templates, conditionals and constants", () => {
    const files = [
      { path: "a.ts", source: 'export const FIX = "Fix it with " + "websites_update.";' },
      {
        path: "b.ts",
        source: [
          'throw new ApiError("conflict", m, { suggestion: "Call " + name + " or websites_nope." });',
          'throw new ApiError("conflict", m, { suggestion: `${FIX} Then cms_items_nope.`, validValues });',
          'const suggestion = ok ? "Retry." : "Call tools_nope.";',
          'throw new ApiError("conflict", m, { suggestion });',
        ].join("\n"),
      },
    ];
    const texts = suggestionTexts(files).map(({ text }) => text);
    expect(texts).toEqual([
      "Call ",
      " or websites_nope.",
      "${FIX} Then cms_items_nope.",
      "Fix it with ",
      "websites_update.",
      "Retry.",
      "Call tools_nope.",
    ]);
    expect(texts.flatMap((text) => unknownReferences(text))).toEqual([
      "websites_nope",
      "cms_items_nope",
      "tools_nope",
    ]);
  });

  it("every error suggestion in src/ and tools/ names only registered tools", () => {
    const offenders = suggestions.flatMap(({ where, text }) =>
      unknownReferences(text, enums).map((reference) => `${where}: ${reference}`),
    );
    expect(offenders).toEqual([]);
  });
});
