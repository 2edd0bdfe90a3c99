// Counts what the MCP tool list costs an agent, in o200k tokens: "model-facing" is what most clients hand to the model
// (name, description and input schema of each tool), "full" is the whole tools/list entry (output schema and
// annotations too). Used by `npm run tools:size` and by the budget test.
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import type { Tool } from "../src/kernel/define-tool.ts";
import { defaultToolsets, type Toolset, toolsets } from "../src/kernel/toolsets.ts";
import { discoveryTools } from "../src/mcp/discovery.ts";
import { mcpTools } from "../src/mcp/tool-list.ts";

/** One listed tool as JSON: everything, and the part a model reads. */
interface Listed {
  name: string;
  description?: string;
  inputSchema: unknown;
}

/** The token counts of a list of tools. */
export function costOf(listed: readonly Listed[]): { tools: number; modelFacing: number; full: number } {
  const modelFacing = listed.reduce(
    (sum, tool) =>
      sum +
      countTokens(
        JSON.stringify({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }),
      ),
    0,
  );
  const full = countTokens(JSON.stringify({ tools: listed }));
  return { tools: listed.length, modelFacing, full };
}

/** Each tool of the list alone, largest model-facing cost first: where the tokens go. */
export function perToolCosts(tools: readonly Tool[]) {
  return mcpTools(tools)
    .map(({ tool, listed }) => ({ name: listed.name, toolset: tool.group.toolset, ...costOf([listed]) }))
    .sort((a, b) => b.modelFacing - a.modelFacing);
}

/** Every mode and toolset of the MCP tool list (for a credential that may call every tool), with its cost. */
export function toolListCosts(tools: readonly Tool[]) {
  const all = mcpTools(tools);
  const of = (sets: readonly Toolset[]) =>
    all.filter(({ tool }) => sets.includes(tool.group.toolset)).map(({ listed }) => listed);
  return {
    default: costOf(of(defaultToolsets)),
    all: costOf(of(toolsets)),
    discover: costOf(discoveryTools),
    toolsets: Object.fromEntries(toolsets.map((set) => [set, costOf(of([set]))])) as Record<
      Toolset,
      ReturnType<typeof costOf>
    >,
  };
}
