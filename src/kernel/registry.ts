import type { Transport } from "./context.ts";
import type { Tool } from "./define-tool.ts";

declare module "./platform.ts" {
  interface Platform {
    /** The operations the platform serves (`createRegistry` of the entry point's tool list). */
    registry: Registry;
  }
}

/** All tools, indexed by operation id and MCP name. Duplicate ids, names or routes fail at start. */
export interface Registry {
  readonly tools: readonly Tool[];
  byOperationId(operationId: string): Tool | undefined;
  byMcpName(name: string): Tool | undefined;
  /** The name a transport uses for an operation: the MCP tool name over MCP, the operation id elsewhere. */
  nameFor(transport: Transport, operationId: string): string;
}

export function createRegistry(tools: readonly Tool[]): Registry {
  const byId = new Map<string, Tool>();
  const byName = new Map<string, Tool>();
  const routes = new Set<string>();
  for (const tool of tools) {
    const route = `${tool.http.method} ${tool.http.path}`;
    if (byId.has(tool.operationId)) throw new Error(`Duplicate operation id ${tool.operationId}`);
    if (byName.has(tool.mcpName)) throw new Error(`Duplicate MCP name ${tool.mcpName}`);
    if (routes.has(route)) throw new Error(`Duplicate route ${route}`);
    byId.set(tool.operationId, tool);
    byName.set(tool.mcpName, tool);
    routes.add(route);
  }
  return {
    tools,
    byOperationId: (id) => byId.get(id),
    byMcpName: (name) => byName.get(name),
    nameFor: (transport, operationId) =>
      transport === "mcp" ? (byId.get(operationId)?.mcpName ?? operationId) : operationId,
  };
}
