import { termsOf } from "../docs/search.ts";
import type { Tool } from "../kernel/define-tool.ts";
import { ApiError } from "../kernel/errors.ts";
import { canCall } from "../kernel/pipeline.ts";
import type { Principal } from "../kernel/principal.ts";
import type { McpTool } from "./tool-list.ts";

/**
 * Discovery mode (`?tools=discover`): three meta-tools instead of the whole list, for clients that connect to many
 * servers. `tools_search` finds tools by intent, `tools_describe` gives one tool's full definition, and `tools_call`
 * calls it through the same pipeline (capability, scope and validation unchanged). They reach every tool the
 * connection may call.
 */
export const discoveryTools: Omit<McpTool, "outputSchema">[] = [
  {
    name: "tools_search",
    title: "Search tools",
    description:
      'Finds this server\'s tools by intent ("publish a website", "add a CMS item") and returns the best matches: name, title, a one-line summary and whether it only reads. Call tools_describe with a name for its input schema.',
    inputSchema: {
      type: "object",
      properties: {
        query: {
          type: "string",
          minLength: 1,
          maxLength: 300,
          description: "What you want to do, in words.",
        },
        limit: { type: "integer", minimum: 1, maximum: 20, description: "How many tools (default 8)." },
      },
      required: ["query"],
      additionalProperties: false,
    },
    annotations: {
      title: "Search tools",
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  },
  {
    name: "tools_describe",
    title: "Describe a tool",
    description:
      "Returns one tool's full definition: description, input schema, output schema and annotations. Then call it with tools_call.",
    inputSchema: {
      type: "object",
      properties: {
        name: { type: "string", minLength: 1, maxLength: 64, description: "A name from tools_search." },
      },
      required: ["name"],
      additionalProperties: false,
    },
    annotations: {
      title: "Describe a tool",
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  },
  {
    name: "tools_call",
    title: "Call a tool",
    description:
      "Calls a tool by name with its arguments (as tools_describe's input schema says) and returns that tool's result or error unchanged. Errors carry a suggestion naming the tool to call next.",
    inputSchema: {
      type: "object",
      properties: {
        name: { type: "string", minLength: 1, maxLength: 64, description: "The tool's name." },
        arguments: { type: "object", description: "The tool's input." },
      },
      required: ["name"],
      additionalProperties: false,
    },
    annotations: {
      title: "Call a tool",
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    },
  },
];

/** The names of the meta-tools. */
export const discoveryNames: ReadonlySet<string> = new Set(discoveryTools.map((tool) => tool.name));

interface Indexed {
  tool: Tool;
  listed: McpTool;
  counts: Map<string, number>;
  length: number;
}

/** A search over the tool list (BM25 over name, title, group and description), built once per server. */
export function createToolIndex(tools: readonly { tool: Tool; listed: McpTool }[]) {
  const entries: Indexed[] = tools.map(({ tool, listed }) => {
    const heading = `${tool.mcpName.replaceAll("_", " ")} ${tool.title} ${tool.group.tag} ${tool.group.toolset}`;
    const terms = [...termsOf(heading), ...termsOf(heading), ...termsOf(tool.description)];
    const counts = new Map<string, number>();
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    return { tool, listed, counts, length: terms.length };
  });
  const average = entries.reduce((sum, e) => sum + e.length, 0) / Math.max(1, entries.length);
  const documentFrequency = new Map<string, number>();
  for (const entry of entries) {
    for (const term of entry.counts.keys())
      documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  }
  const idf = (term: string) => {
    const n = documentFrequency.get(term) ?? 0;
    return Math.log(1 + (entries.length - n + 0.5) / (n + 0.5));
  };
  const byName = new Map(entries.map((entry) => [entry.tool.mcpName, entry]));
  return {
    /** The tools this principal may call that match the query best, best first. */
    search(principal: Principal, query: string, limit: number) {
      const terms = [...new Set(termsOf(query))];
      return entries
        .filter((entry) => canCall(principal, entry.tool))
        .map((entry) => {
          let score = 0;
          for (const term of terms) {
            const f = entry.counts.get(term) ?? 0;
            if (f > 0) score += (idf(term) * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * entry.length) / average));
          }
          return { entry, score };
        })
        .filter(({ score }) => score > 0)
        .sort((a, b) => b.score - a.score)
        .slice(0, limit)
        .map(({ entry }) => ({
          name: entry.tool.mcpName,
          title: entry.tool.title,
          summary: firstSentence(entry.tool.description),
          readOnly: entry.tool.annotations.readOnly,
        }));
    },
    /** One tool's full definition, if this principal may call it. */
    describe(principal: Principal, name: string): McpTool | undefined {
      const entry = byName.get(name);
      return entry && canCall(principal, entry.tool) ? entry.listed : undefined;
    },
  };
}

function firstSentence(text: string): string {
  const end = text.search(/\.(\s|$)/);
  return end === -1 ? text : text.slice(0, end + 1);
}

type TextResult = {
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: true;
};

const json = (value: Record<string, unknown>): TextResult => ({
  content: [{ type: "text", text: JSON.stringify(value) }],
  structuredContent: value,
});
const failure = (error: ApiError): TextResult => ({
  isError: true,
  content: [{ type: "text", text: JSON.stringify(error.toBody()) }],
});

/**
 * Answers a call of a meta-tool: search and describe read the index; `tools_call` hands the named tool and its
 * arguments to `call`, the ordinary MCP tool call (the same pipeline and errors as calling it directly).
 */
export async function callDiscoveryTool<R>(
  index: ReturnType<typeof createToolIndex>,
  principal: Principal,
  name: string,
  args: Record<string, unknown>,
  call: (name: string, args: unknown) => Promise<R>,
): Promise<R | TextResult> {
  const text = (field: string, max: number) => {
    const value = args[field];
    if (typeof value !== "string" || value.trim() === "" || value.length > max) {
      throw new ApiError("validation", `${field} must be a non-empty string of at most ${max} characters.`);
    }
    return value.trim();
  };
  try {
    const extra = Object.keys(args).find((key) => !(key in discoveryInputs[name]!));
    if (extra) throw new ApiError("validation", `${extra} is not an input of ${name}.`);
    if (name === "tools_search") {
      const limit = args.limit ?? 8;
      if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > 20) {
        throw new ApiError("validation", "limit must be an integer from 1 to 20.");
      }
      return json({ items: index.search(principal, text("query", 300), limit as number) });
    }
    const target = text("name", 64);
    const found = index.describe(principal, target);
    if (!found) {
      throw new ApiError(
        "not_found",
        `Tool '${target}' was not found among the tools this connection may call.`,
        {
          suggestion: "Call tools_search with what you want to do to find the tool's name.",
        },
      );
    }
    if (name === "tools_describe") return json(found as unknown as Record<string, unknown>);
    const input = args.arguments ?? {};
    if (typeof input !== "object" || input === null || Array.isArray(input)) {
      throw new ApiError("validation", "arguments must be an object (the tool's input).");
    }
    return await call(target, input);
  } catch (error) {
    if (error instanceof ApiError) return failure(error);
    throw error;
  }
}

const discoveryInputs: Record<string, Record<string, unknown>> = Object.fromEntries(
  discoveryTools.map((tool) => [tool.name, tool.inputSchema.properties as Record<string, unknown>]),
);
