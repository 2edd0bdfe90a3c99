import type { Tool } from "../kernel/define-tool.ts";
import { compactSchemasOf } from "../kernel/json-schema.ts";
import { canCall } from "../kernel/pipeline.ts";
import type { Principal } from "../kernel/principal.ts";
import { listedToolsets } from "./selection.ts";

/** A tool as `tools/list` describes it: the operation id in snake case as its name, schemas, and all four annotations. */
export function mcpToolOf(tool: Tool) {
  const { input, output } = compactSchemasOf(tool);
  return {
    name: tool.mcpName,
    title: tool.title,
    description: tool.description,
    inputSchema: input as { type: "object"; [key: string]: unknown },
    outputSchema: output as { type: "object"; [key: string]: unknown },
    annotations: {
      title: tool.title,
      readOnlyHint: tool.annotations.readOnly,
      destructiveHint: tool.annotations.destructive,
      idempotentHint: tool.annotations.idempotent,
      openWorldHint: tool.annotations.openWorld,
    },
  };
}

export type McpTool = ReturnType<typeof mcpToolOf>;

/** Tools exposed over MCP (billing and other dashboard-only operations are not). */
export function mcpTools(tools: readonly Tool[]): { tool: Tool; listed: McpTool }[] {
  return tools.filter((tool) => tool.mcp !== false).map((tool) => ({ tool, listed: mcpToolOf(tool) }));
}

/** What `tools/list` shows this principal: only the tools it could call, of the toolsets it picked (else the default). */
export function toolsVisibleTo(principal: Principal, tools: ReturnType<typeof mcpTools>): McpTool[] {
  const sets = listedToolsets(principal);
  return tools
    .filter(({ tool }) => sets.includes(tool.group.toolset) && canCall(principal, tool))
    .map(({ listed }) => listed);
}
