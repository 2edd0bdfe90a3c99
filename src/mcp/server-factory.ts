import { ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server";
import { productDocs } from "../docs/index.ts";
import { toApiError } from "../kernel/errors.ts";
import { derivedOnce } from "../kernel/frozen.ts";
import { callTool, canCall } from "../kernel/pipeline.ts";
import type { Platform } from "../kernel/platform.ts";
import type { Principal } from "../kernel/principal.ts";
import { callDiscoveryTool, createToolIndex, discoveryNames, discoveryTools } from "./discovery.ts";
import {
  completeDocTemplate,
  listDocResources,
  listDocTemplates,
  readDocResource,
  SECTION_TEMPLATE,
} from "./docs-resources.ts";
import {
  completePromptArgument,
  getPrompt,
  listPrompts,
  promptNamed,
  promptsFor,
  websitesOf,
} from "./prompts.ts";
import { mcpTools, toolsVisibleTo } from "./tool-list.ts";

const instructions = `Sitewright builds and runs websites. Start with websites_list or websites_create; every website-scoped tool takes a websiteId. Failed calls return {kind, message, suggestion?, validValues?, issues?} as JSON; follow the suggestion, which names the tool to call next. The documentation is readable as resources (sitewright://docs/<page>), and prompts walk through common tasks.`;

/** The server's name in `initialize` results and the 2026 envelope's serverInfo. */
export const SERVER_NAME = "sitewright";

/** Who is calling: handed from the HTTP edge to the tool handlers as the request's auth info. */
export interface CallerInfo {
  principal: Principal;
  requestId: string;
  /** Discovery mode (`?tools=discover`): `tools/list` shows the meta-tools instead (see discovery.ts). */
  discover?: boolean;
}

type Content = { type: "text"; text: string } | { type: "image"; data: string; mimeType: string };

/** A tools/call result; a successful one's first block is the text `JSON.stringify(structuredContent)` (fast-call.ts relies on it), images may follow. */
export type ToolCallResult =
  | { content: Content[]; structuredContent: Record<string, unknown> }
  | { isError: true; content: { type: "text"; text: string }[] };

/** The JSON text of deep-frozen outputs (reused while the database is unchanged): serialized once. */
const outputTexts = new WeakMap<object, string>();

/** Runs one `tools/call` of a known tool through the shared pipeline: its output, or the error body as an `isError` result. */
export function toolCaller(platform: Platform) {
  const byName = new Map(mcpTools(platform.registry.tools).map((entry) => [entry.tool.mcpName, entry.tool]));
  const nameOperation = (id: string) => platform.registry.nameFor("mcp", id);
  return async (name: string, args: unknown, caller: CallerInfo): Promise<ToolCallResult> => {
    try {
      const tool = byName.get(name);
      if (!tool) throw unknownTool(name);
      const output = await callTool(platform, tool, args ?? {}, {
        principal: caller.principal,
        transport: "mcp",
        requestId: caller.requestId,
      });
      const content: Content[] = [{ type: "text", text: derivedOnce(outputTexts, output, JSON.stringify) }];
      for (const image of tool.mcpImages?.(output as Record<string, unknown>) ?? []) {
        const bytes = await platform.blobs.get(image.sha256);
        if (bytes)
          content.push({
            type: "image",
            data: Buffer.from(bytes).toString("base64"),
            mimeType: image.mimeType,
          });
      }
      return { content, structuredContent: output as Record<string, unknown> };
    } catch (error) {
      if (error instanceof ProtocolError) throw error;
      const body = toApiError(error).toBody(nameOperation);
      return { content: [{ type: "text", text: JSON.stringify(body) }], isError: true };
    }
  };
}

/** A tool name the server does not have: the protocol's invalid-params error, not a tool result. */
const unknownTool = (name: string) =>
  new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Unknown tool '${name}'; tools/list names the tools this credential can call.`,
  );

/** What the server offers besides tools: the documentation as resources, task prompts, completions, logging. */
const capabilities = { tools: {}, resources: {}, prompts: {}, completions: {}, logging: {} };

/**
 * Builds the per-request MCP server: a light low-level Server whose handlers read precomputed descriptions and run
 * the shared call pipeline, so nothing is converted or registered per request. `logging/setLevel` is the SDK's own
 * handler: acknowledged, and honoured for the log notifications of the same request (the endpoint is stateless).
 */
export function mcpServerFactory(platform: Platform, version: string) {
  const tools = mcpTools(platform.registry.tools);
  const call = toolCaller(platform);
  const index = createToolIndex(tools);
  return (caller: CallerInfo): Server => {
    const { principal, requestId } = caller;
    const server = new Server({ name: SERVER_NAME, version }, { capabilities, instructions });
    server.setRequestHandler("tools/list", async () => ({
      tools: caller.discover ? [...discoveryTools] : toolsVisibleTo(principal, tools),
    }));
    server.setRequestHandler("tools/call", (request) => {
      const { name, arguments: args } = request.params;
      if (caller.discover && discoveryNames.has(name)) {
        return callDiscoveryTool(index, principal, name, args ?? {}, (target, input) =>
          call(target, input, caller),
        );
      }
      return call(name, args, caller);
    });
    server.setRequestHandler("resources/list", async () => listDocResources(productDocs()));
    server.setRequestHandler("resources/templates/list", async () => listDocTemplates());
    server.setRequestHandler("resources/read", async (request) =>
      readDocResource(productDocs(), request.params.uri),
    );
    const visiblePrompts = () =>
      promptsFor((id) => {
        const tool = platform.registry.byOperationId(id);
        return tool !== undefined && canCall(principal, tool);
      });
    const websites = () => websitesOf(platform, principal, requestId);
    server.setRequestHandler("prompts/list", async () => listPrompts(visiblePrompts()));
    server.setRequestHandler("prompts/get", (request) =>
      getPrompt(promptNamed(visiblePrompts(), request.params.name), request.params.arguments, websites),
    );
    server.setRequestHandler("completion/complete", async (request) => {
      const { ref, argument, context } = request.params;
      if (ref.type === "ref/prompt") {
        return completePromptArgument(promptNamed(visiblePrompts(), ref.name), argument, websites);
      }
      if (ref.uri !== SECTION_TEMPLATE) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Unknown resource template '${ref.uri}'; resources/templates/list names the templates.`,
        );
      }
      return completeDocTemplate(productDocs(), argument, context?.arguments);
    });
    return server;
  };
}
