import type { z } from "zod";
import type { Capability } from "./capabilities.ts";
import type { PrepareContext, ToolContext } from "./context.ts";

/** The operation groups of the API contract (docs/api-contract.md); each is an OpenAPI tag. */
export const groups = [
  "Documentation",
  "Feedback",
  "Websites",
  "Website editors",
  "API keys",
  "Source code",
  "Publishing",
  "CMS collections",
  "CMS fields",
  "CMS items",
  "Domains",
  "Assets",
  "Media generation",
  "Web research",
  "Project Context",
  "Analytics",
  "Forms",
  "Server functions",
  "Secrets",
  "Accounts",
  "Organizations",
  "Audit log",
  "Billing",
] as const;
export type Group = (typeof groups)[number];

/** MCP tool annotations, all explicit (they also become the `x-service-*` OpenAPI extensions). */
export interface ToolAnnotations {
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
  openWorld: boolean;
}

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/** REST binding: path parameters (`{name}`) are lifted from the input; GET takes the rest as query, others as JSON body. */
export interface HttpBinding {
  method: HttpMethod;
  path: string;
  /**
   * An upload: besides a JSON body, the route takes the file itself (any other `Content-Type`; the other
   * fields as query parameters) or `multipart/form-data` (the file part `file`, the other fields as text
   * parts). The file's bytes reach the input as base64 in `field`, its multipart file name in `nameField`
   * when that is not given. The body may be up to `maxBytes` (MCP and JSON bodies keep the API's limit).
   */
  file?: { field: string; nameField?: string; maxBytes: number };
}

export type AnyObject = z.ZodObject<z.ZodRawShape>;

/** One operation, authored once and projected as an MCP tool, a REST route and an OpenAPI operation. */
export interface ToolDefinition<
  I extends AnyObject = AnyObject,
  O extends AnyObject = AnyObject,
  P = undefined,
> {
  /** `group.resource.verb` in camelCase segments, such as `apiKeys.list`. */
  operationId: string;
  group: Group;
  title: string;
  /** Written for an agent: what it does, when to use it, what comes back, what to call next. */
  description: string;
  input: I;
  output: O;
  capability: Capability;
  annotations: ToolAnnotations;
  /** Rate-limit bucket (the four build and publish operations are `expensive`). */
  cost: "standard" | "expensive";
  http: HttpBinding;
  /**
   * Input fields the pipeline scope-checks before the handler (default both): a `websiteId` must be a website the
   * principal reaches (else `not_found`), an `organizationId` an organization it has a grant on. Leave a field out
   * when it is only a filter inside an already scoped query (the audit log's `websiteId`).
   */
  scopeBy?: readonly ("websiteId" | "organizationId")[];
  /** False hides the tool from MCP (`tools/list` and `tools/call`): operations performed in the dashboard only. */
  mcp?: boolean;
  /** The audit entry's target for a mutation; defaults to the output's `id` under the operation's resource name. */
  auditTarget?: (input: z.output<I>, output: z.output<O>) => { type: string; id: string | undefined };
  /**
   * Slow work that must not run inside a unit of work (a site build). The pipeline calls it after the capability,
   * rate-limit, input and scope checks and before the handler, with no transaction or read open: on SQLite every
   * unit of work is serialized, so a two-second build inside one would stall every other request for two seconds,
   * and on PostgreSQL it would hold a pooled connection and its locks. It reads through `ctx.read` (short units of
   * work of its own) and writes nothing to the database (content-addressed blobs are fine: unreferenced ones are
   * harmless). Its result reaches the handler as `ctx.prepared`; the handler commits it in the usual one
   * transaction with the audit entry, re-checking whatever may have changed meanwhile (the pipeline re-runs the
   * scope check there). A failure in `prepare` is audited like a failure of the handler.
   */
  prepare?: (input: z.output<I>, ctx: PrepareContext) => Promise<P>;
  handler: (input: z.output<I>, ctx: ToolContext<P>) => Promise<z.input<O>>;
}

/** A tool as the registry holds it, with its derived MCP name. */
export interface Tool extends ToolDefinition<AnyObject, AnyObject, unknown> {
  readonly mcpName: string;
}

/** `apiKeys.list` → `api_keys_list`: claude.ai, Desktop, Codex and Copilot reject dots in tool names. */
export function mcpNameOf(operationId: string): string {
  return operationId
    .split(".")
    .map((segment) => segment.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`))
    .join("_");
}

/** Defines one operation. The definition is data; the kernel's pipeline runs it for REST and MCP alike. */
export function defineTool<I extends AnyObject, O extends AnyObject, P = undefined>(
  definition: ToolDefinition<I, O, P>,
): Tool {
  const mcpName = mcpNameOf(definition.operationId);
  if (!/^[a-z][a-z0-9_]{0,39}$/.test(mcpName)) {
    throw new Error(`MCP name '${mcpName}' of ${definition.operationId} must match ^[a-z][a-z0-9_]{0,39}$`);
  }
  return { ...(definition as unknown as ToolDefinition<AnyObject, AnyObject, unknown>), mcpName };
}
