import type { z } from "zod";
import type { PrepareContext, ToolContext } from "./context.ts";
import { type AccessRule, accessRules } from "./roles.ts";
import { isToolset, type Toolset, toolsets } from "./toolsets.ts";

/**
 * An operation group: its OpenAPI tag and what every tool of the group has unless the tool says otherwise.
 * Defined once in `tools/<group>/group.ts`; tool files pass it as `group` and state only what differs.
 */
export interface ToolGroup {
  /** The group's name in the API contract and its OpenAPI tag, such as `Website editors`. */
  readonly tag: string;
  /** What the group's operations act on, for the OpenAPI tag (written for an agent). */
  readonly description: string;
  /** The toolset a client picks to get this group's tools over MCP (`src/kernel/toolsets.ts`). */
  readonly toolset: Toolset;
  readonly defaults: {
    /** Access rule of the group's tools that declare none. */
    access?: AccessRule;
    /** Rate-limit bucket of the group's tools that declare none (else `standard`). */
    cost?: Cost;
    /** False hides the group's tools from MCP (dashboard-only groups), unless a tool says otherwise. */
    mcp?: boolean;
  };
}

/** Defines an operation group (see `ToolGroup`). */
export function defineGroup(group: ToolGroup): ToolGroup {
  if (!isToolset(group.toolset)) {
    throw new Error(`group '${group.tag}' must declare its toolset, one of: ${toolsets.join(", ")}`);
  }
  return Object.freeze({ ...group, defaults: Object.freeze({ ...group.defaults }) });
}

export type Cost = "standard" | "expensive";

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

/** Input fields naming a tool's scope (see `ToolDefinition.scope`). */
export interface ToolScope<K extends string = string> {
  websiteId?: K;
  organizationId?: K;
  filterOnly?: readonly K[];
}

/** Input field names that always denote a scope, so a tool must say what it does with them. */
const scopeNames = ["websiteId", "organizationId"] as const;

/** One operation, authored once and projected as an MCP tool, a REST route and an OpenAPI operation. */
export interface ToolDefinition<
  I extends AnyObject = AnyObject,
  O extends AnyObject = AnyObject,
  P = undefined,
> {
  /** `group.resource.verb` in camelCase segments, such as `apiKeys.list`. */
  operationId: string;
  group: ToolGroup;
  title: string;
  /** Written for an agent: what it does, when to use it, what comes back, what to call next. */
  description: string;
  input: I;
  output: O;
  /**
   * Who may call it: the least role (`content_editor`, `full_editor`, `admin`, `owner`; admin and owner need an
   * organization-wide grant), `personal` (every signed-in user, no key or token) or `signedOut` (the dashboard's
   * signed-out visitor). Defaults to the group's.
   */
  access?: AccessRule;
  /** Read, create, update, delete…: one of `presets` (src/kernel/annotations.ts). */
  annotations: ToolAnnotations;
  /** Rate-limit bucket (the four build and publish operations are `expensive`); defaults to the group's, else standard. */
  cost?: Cost;
  http: HttpBinding;
  /**
   * What the operation acts on: the input field holding the website (it must be one the principal reaches, else
   * `not_found`) and the one holding the organization (one it has a grant on), checked before the handler; the
   * audit entry belongs to the organization they resolve. An input field named `websiteId` or `organizationId`
   * must be declared here, or listed in `filterOnly` when it only narrows an already scoped query (the audit log's
   * `websiteId`). Tools without one resolve their organization in the handler (`ctx.access.apiKey`, …).
   */
  scope?: ToolScope<Extract<keyof z.output<I>, string>>;
  /**
   * Accepts an `idempotencyKey` input (a mutation only): a repeat with the same key and input within 24 hours
   * returns the first result instead of running again; the key is per organization (the declared scope's), else
   * per principal.
   */
  idempotency?: true;
  /**
   * REST answers with a streamed text download instead of JSON: the text of the first output, then the operation is
   * called again with each `nextCursor` (every page through the pipeline) and their text follows, until none is left.
   * MCP and the dashboard get the JSON output page by page as usual.
   */
  textStream?: {
    contentType: string;
    filename(input: z.output<I>): string;
    /** The text of one page; `first` is false for the pages after the first (which, for CSV, repeat no header). */
    text(output: z.output<O>, first: boolean): string;
    nextCursor(output: z.output<O>): string | null;
    /** Response headers taken from the first page's output (a null value leaves the header out). */
    headers?: Record<string, { description: string; value(output: z.output<O>): string | null }>;
  };
  /** False hides the tool from MCP (`tools/list` and `tools/call`): operations performed in the dashboard only. */
  mcp?: boolean;
  /**
   * Images an MCP result also carries as image content, so the agent can look at them (screenshots, contact
   * sheets): blobs named by sha256, read from the blob store after the call. REST returns only the JSON output.
   */
  mcpImages?: (output: z.output<O>) => readonly { sha256: string; mimeType: string }[];
  /** The audit entry's target for a mutation; defaults to the output's `id` under the operation's resource name. */
  auditTarget?: (input: z.output<I>, output: z.output<O>) => { type: string; id: string | undefined };
  /**
   * Slow work that must not run inside a unit of work (a site build). The pipeline calls it after the capability,
   * rate-limit, input and scope checks and before the handler, with no transaction or read open: on SQLite every
   * unit of work is serialized, so a two-second build inside one would stall every other request for two seconds,
   * and on PostgreSQL it would hold a pooled connection and its locks. It reads through `ctx.read` (short units of
   * work of its own) and writes nothing to the database (content-addressed blobs are fine: unreferenced ones are
   * harmless), except a hold that `abandon` gives back (an AI credit reservation, in a unit of work of its own).
   * Its result reaches the handler as `ctx.prepared`; the handler commits it in the usual one
   * transaction with the audit entry, re-checking whatever may have changed meanwhile (the pipeline re-runs the
   * scope check there). A failure in `prepare` is audited like a failure of the handler.
   */
  prepare?: (input: z.output<I>, ctx: PrepareContext) => Promise<P>;
  /**
   * Gives back what `prepare` held when the call fails after `prepare` returned (the handler threw, or its unit
   * of work rolled back): an AI credit reservation is released. Gets the context `prepare` got; a failure here
   * is logged, and the call's own error is what the caller sees.
   */
  abandon?: (prepared: P, ctx: PrepareContext) => Promise<void>;
  handler: (input: z.output<I>, ctx: ToolContext<P>) => Promise<z.input<O>>;
}

/** A tool as the registry holds it: the group's defaults applied, with its derived MCP name. */
export interface Tool extends ToolDefinition<AnyObject, AnyObject, unknown> {
  readonly access: AccessRule;
  readonly cost: Cost;
  readonly mcp: boolean;
  readonly mcpName: string;
}

/**
 * A tool that keeps its operation id, input and output types (`~types` exists only for the type checker), so a
 * list of tools yields the typed in-process `call` (`OperationId`, `OperationInput`, `OperationOutput`).
 */
export interface TypedTool<Id extends string, In, Out> extends Tool {
  readonly operationId: Id;
  readonly "~types"?: { readonly input: In; readonly output: Out };
}

/** The input a caller passes to a typed tool (before zod's defaults). */
export type InputOf<T> = T extends TypedTool<string, infer In, unknown> ? In : never;
/** What a typed tool returns. */
export type OutputOf<T> = T extends TypedTool<string, unknown, infer Out> ? Out : never;

/** `apiKeys.list` → `api_keys_list`: claude.ai, Desktop, Codex and Copilot reject dots in tool names. */
export function mcpNameOf(operationId: string): string {
  return operationId
    .split(".")
    .map((segment) => segment.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`))
    .join("_");
}

/** Defines one operation. The definition is data; the kernel's pipeline runs it for REST and MCP alike. */
export function defineTool<const Id extends string, I extends AnyObject, O extends AnyObject, P = undefined>(
  definition: ToolDefinition<I, O, P> & { operationId: Id },
): TypedTool<Id, z.input<I>, z.output<O>> {
  const mcpName = mcpNameOf(definition.operationId);
  if (!/^[a-z][a-z0-9_]{0,39}$/.test(mcpName)) {
    throw new Error(`MCP name '${mcpName}' of ${definition.operationId} must match ^[a-z][a-z0-9_]{0,39}$`);
  }
  const access = definition.access ?? definition.group.defaults.access;
  if (!access || !accessRules.includes(access)) {
    throw new Error(
      `${definition.operationId} declares no access rule and its group '${definition.group.tag}' has no default`,
    );
  }
  checkDeclarations(definition as unknown as ToolDefinition);
  const { defaults } = definition.group;
  return {
    ...(definition as unknown as ToolDefinition<AnyObject, AnyObject, unknown>),
    access,
    cost: definition.cost ?? defaults.cost ?? "standard",
    mcp: definition.mcp ?? defaults.mcp ?? true,
    mcpName,
  } as TypedTool<Id, z.input<I>, z.output<O>>;
}

/** Scope and idempotency are declared, never inferred from field names: an undeclared one fails at definition. */
function checkDeclarations(definition: ToolDefinition): void {
  const fail = (message: string) => {
    throw new Error(`${definition.operationId}: ${message}`);
  };
  const fields = Object.keys(definition.input.shape);
  const { websiteId, organizationId, filterOnly = [] } = definition.scope ?? {};
  const declared = [websiteId, organizationId, ...filterOnly].filter((name) => name !== undefined);
  for (const name of declared) {
    if (!fields.includes(name)) fail(`scope names '${name}', which is not an input field`);
  }
  for (const name of scopeNames) {
    if (fields.includes(name) && !declared.includes(name)) {
      fail(`input '${name}' must be declared in scope (or in scope.filterOnly when it only filters)`);
    }
  }
  const hasKey = fields.includes("idempotencyKey");
  if (definition.idempotency && (!hasKey || definition.annotations.readOnly)) {
    fail("idempotency needs an `idempotencyKey` input field on a mutation");
  }
  if (hasKey && !definition.annotations.readOnly && !definition.idempotency) {
    fail("input 'idempotencyKey' needs `idempotency: true`");
  }
}
