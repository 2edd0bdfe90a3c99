import { createHash } from "node:crypto";
import type { Stores } from "../db/stores/index.ts";
import { type Access, createAccess } from "./access.ts";
import type { PrepareContext, ToolContext, Transport } from "./context.ts";
import type { Tool } from "./define-tool.ts";
import { ApiError, toApiError } from "./errors.ts";
import { isFrozenDeep } from "./frozen.ts";
import { newId } from "./ids.ts";
import { fitOutput } from "./output-fit.ts";
import type { Platform } from "./platform.ts";
import { grantsIn, grantsOnWebsite, type Principal } from "./principal.ts";
import { noteOperation, reportFailure } from "./request-scope.ts";
import { grantHolds, isPersonal, isSignedOut } from "./roles.ts";
import { parseInput } from "./validation.ts";

export interface CallOptions {
  principal: Principal;
  transport: Transport;
  requestId: string;
}

const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** Where a call would act: an organization, or one of its websites. */
export interface CallPlace {
  organizationId: string;
  websiteId?: string;
}

/**
 * Whether `principal` could call `tool` somewhere (what `tools/list` shows and the 403 check enforces), or, given
 * `where`, in that organization or on that website (what the dashboard shows); the scope check still decides.
 */
export function canCall(principal: Principal, tool: Tool, where?: CallPlace): boolean {
  if (principal.readOnly && !tool.annotations.readOnly) return false;
  if (principal.toolsets && !principal.toolsets.includes(tool.group.toolset)) return false;
  if (isSignedOut(tool.access)) return principal.type === "visitor";
  if (isPersonal(tool.access)) return principal.type === "user";
  const grants = !where
    ? principal.grants
    : where.websiteId === undefined
      ? grantsIn(principal, where.organizationId)
      : grantsOnWebsite(principal, where.organizationId, where.websiteId);
  return grants.some((g) => grantHolds(g.role, g.websiteIds !== undefined, tool.access));
}

/**
 * An in-process caller of operations by id, as one principal through one transport (the dashboard, the CLI,
 * tests). The tool list types it: `callerFor(...)` in `tools/index.ts` is the typed `Call`.
 */
export function operationCaller(platform: Platform, call: CallOptions) {
  return (operationId: string, input: unknown): Promise<unknown> => {
    const tool = platform.registry.byOperationId(operationId);
    if (!tool) throw new ApiError("not_found", `Operation ${operationId} is not registered.`);
    return callTool(platform, tool, input, call);
  };
}

/**
 * The one call pipeline behind REST and MCP: capability → rate limit → input validation → scope →
 * idempotency → the tool's `prepare`, outside any unit of work, when it has one → handler (mutations in one
 * transaction with their audit entry) → output projection.
 * Authentication happens at the boundary, which hands over the principal.
 */
export async function callTool(
  platform: Platform,
  tool: Tool,
  rawInput: unknown,
  call: CallOptions,
): Promise<unknown> {
  noteOperation(tool.operationId, call.principal);
  try {
    return await run(platform, tool, rawInput, call);
  } catch (error) {
    const failure = toApiError(error);
    if (failure !== error)
      reportFailure(platform.log, `${tool.operationId} failed (${call.requestId})`, error);
    throw failure;
  }
}

async function run(platform: Platform, tool: Tool, rawInput: unknown, call: CallOptions): Promise<unknown> {
  const { principal } = call;
  if (!canCall(principal, tool)) throw refusal(principal, tool);
  const bucket = await platform.db.rateLimiter.take(
    `${principal.bucketKey}:${tool.cost}`,
    platform.config.rateLimits[tool.cost],
    1,
  );
  if (!bucket.allowed) {
    platform.metrics.rateLimited(tool.cost);
    throw new ApiError("rate_limited", `Rate limit reached for ${tool.cost} operations of this credential.`, {
      retryAfterSeconds: bucket.retryAfterSeconds,
      headers: { "Retry-After": String(bucket.retryAfterSeconds) },
      suggestion: `Retry after ${bucket.retryAfterSeconds} second(s).`,
    });
  }
  const input = parseInput(tool.input, rawInput ?? {}) as Record<string, unknown>;
  const operation = new Operation(platform, tool, call, input);
  return tool.annotations.readOnly ? operation.read() : operation.mutate();
}

/** Why `principal` may not call `tool` at all (the 403 of `canCall`), most specific reason first. */
function refusal(principal: Principal, tool: Tool): ApiError {
  if (isSignedOut(tool.access)) {
    return new ApiError(
      "forbidden",
      `${tool.operationId} is only for signed-out visitors of the dashboard.`,
      {
        suggestion: "Create accounts on the dashboard's sign-up page, signed out.",
      },
    );
  }
  if (principal.readOnly && !tool.annotations.readOnly) {
    return new ApiError("forbidden", `This connection is read-only; ${tool.operationId} changes data.`, {
      suggestion: "Reconnect without ?readonly=1, or with a consent that grants write access.",
    });
  }
  if (principal.toolsets && !principal.toolsets.includes(tool.group.toolset)) {
    return new ApiError(
      "forbidden",
      `${tool.operationId} belongs to the toolset '${tool.group.toolset}', which this connection did not pick.`,
      {
        suggestion: `Reconnect with '${tool.group.toolset}' in ?toolsets= (or the X-MCP-Toolsets header); an OAuth connection must also be authorized again with '${tool.group.toolset}' checked on the consent page.`,
      },
    );
  }
  if (isPersonal(tool.access)) {
    return new ApiError(
      "forbidden",
      `${tool.operationId} can only be called by a signed-in user, not with an API key or an OAuth token.`,
      { suggestion: "Sign in to the dashboard and do this there (or through its same-origin API)." },
    );
  }
  return new ApiError("forbidden", `This credential's role does not include ${tool.operationId}.`, {
    suggestion: "Use a key whose role covers this operation, or ask an organization admin for one.",
  });
}

/**
 * One call past its capability, rate-limit and input checks: the tool's `prepare` (outside any unit of work),
 * the scope check and handler in one unit of work, the output projection, the after-commit work. A class rather
 * than closures built per call: the read path allocates this object and the handler's context, nothing else.
 */
class Operation {
  readonly now = Date.now();
  prepared: unknown;
  prepareContext: PrepareContext | undefined;
  resolved: Access["resolved"] = {};
  /** Work to run once the unit of work committed (`ctx.afterCommit`); a retried unit of work starts over. */
  committed: (() => Promise<void>)[] = [];

  constructor(
    readonly platform: Platform,
    readonly tool: Tool,
    readonly call: CallOptions,
    readonly input: Record<string, unknown>,
  ) {}

  async read(): Promise<unknown> {
    if (this.tool.prepare) await this.prepare();
    const output = await this.platform.db.read((stores) => this.handle(stores));
    const fitted = fitOnce(this.tool, output);
    if (this.committed.length > 0) await this.afterCommit();
    return fitted;
  }

  async mutate(): Promise<unknown> {
    const { platform, tool, call, input } = this;
    const idempotency =
      tool.idempotency && typeof input.idempotencyKey === "string"
        ? await claimIdempotency(platform, tool, input, call)
        : undefined;
    if (idempotency?.replay) return idempotency.response;
    try {
      if (tool.prepare) await this.prepare();
      const result = await platform.db.transaction(async (stores) => {
        this.committed.length = 0;
        const access = await this.scoped(stores);
        this.resolved = access.resolved;
        const output = fitOutput(tool.output, await tool.handler(input, new Context(this, stores, access)));
        await stores.audit.append(
          auditEntry(tool, call, this.now, access.resolved, input, output, "success"),
        );
        if (idempotency) await stores.idempotency.complete(idempotency.key, output);
        return output;
      });
      await this.afterCommit();
      return result;
    } catch (error) {
      const failure = toApiError(error);
      if (this.prepareContext && tool.abandon) {
        await tool
          .abandon(this.prepared, this.prepareContext)
          .catch((cause) => platform.log.error(`${tool.operationId} abandon failed`, cause));
      }
      if (idempotency) await platform.db.transaction((stores) => stores.idempotency.release(idempotency.key));
      if (this.resolved.organizationId) {
        const entry = auditEntry(tool, call, this.now, this.resolved, input, undefined, failure.kind);
        await platform.db.transaction((stores) => stores.audit.append(entry)).catch(() => undefined);
      }
      throw error;
    }
  }

  /** The read path's unit of work: scope check (only when the input names a scope), then the handler. */
  private handle(stores: Stores): Promise<unknown> {
    const access = createAccess(this.call.principal, this.tool, stores);
    const website = scopeValue(this.tool, this.input, "websiteId");
    const organization = scopeValue(this.tool, this.input, "organizationId");
    if (website === undefined && organization === undefined) {
      return this.tool.handler(this.input, new Context(this, stores, access));
    }
    return checkScope(access, website, organization).then(() =>
      this.tool.handler(this.input, new Context(this, stores, access)),
    );
  }

  private async scoped(stores: Stores): Promise<Access> {
    const access = createAccess(this.call.principal, this.tool, stores);
    await checkScope(
      access,
      scopeValue(this.tool, this.input, "websiteId"),
      scopeValue(this.tool, this.input, "organizationId"),
    );
    return access;
  }

  // A tool's slow part (a build) runs with no unit of work open, after its own short scope check; the handler's
  // unit of work scope-checks again (the website may have gone meanwhile).
  private async prepare(): Promise<void> {
    const { platform, call } = this;
    const access = await platform.db.read((stores) => this.scoped(stores));
    this.resolved = access.resolved;
    const prepareWith: PrepareContext = {
      principal: call.principal,
      platform,
      requestId: call.requestId,
      transport: call.transport,
      now: this.now,
      resolved: { ...access.resolved },
      read: (work) => platform.db.read(work),
    };
    this.prepared = await this.tool.prepare!(this.input, prepareWith);
    this.prepareContext = prepareWith;
  }

  private async afterCommit(): Promise<void> {
    for (const work of this.committed.splice(0)) {
      await work().catch((error) =>
        this.platform.log.error(`${this.tool.operationId} after-commit work failed`, error),
      );
    }
  }
}

/** Deep-frozen outputs that passed their tool's output check as they are: they cannot have changed since. */
const fitted = new WeakMap<object, Tool["output"]>();

/** `fitOutput`, once per deep-frozen output (a page a tool reuses while the database is unchanged). */
function fitOnce(tool: Tool, output: unknown): unknown {
  if (!isFrozenDeep(output)) return fitOutput(tool.output, output);
  if (fitted.get(output) === tool.output) return output;
  const result = fitOutput(tool.output, output);
  if (result === output) fitted.set(output, tool.output);
  return result;
}

/** What a handler receives: the operation's principal, time and prepared value, and its unit of work. */
class Context implements ToolContext<unknown> {
  readonly principal: Principal;
  readonly platform: Platform;
  readonly requestId: string;
  readonly transport: Transport;
  readonly now: number;
  readonly prepared: unknown;
  readonly #operation: Operation;

  constructor(
    operation: Operation,
    readonly stores: Stores,
    readonly access: Access,
  ) {
    this.principal = operation.call.principal;
    this.platform = operation.platform;
    this.requestId = operation.call.requestId;
    this.transport = operation.call.transport;
    this.now = operation.now;
    this.prepared = operation.prepared;
    this.#operation = operation;
  }

  afterCommit(work: () => Promise<void>): void {
    this.#operation.committed.push(work);
  }
}

/** The declared scope checks of a call: its website first, then its organization. */
async function checkScope(access: Access, website?: string, organization?: string): Promise<void> {
  if (website !== undefined) await access.website(website);
  if (organization !== undefined) await access.organization(organization);
}

function auditEntry(
  tool: Tool,
  call: CallOptions,
  at: number,
  resolved: Access["resolved"],
  input: Record<string, unknown>,
  output: unknown,
  outcome: string,
) {
  const defaultTarget = {
    type: tool.operationId.split(".").slice(0, -1).join("."),
    id: (output as { id?: string } | undefined)?.id ?? firstPathParam(tool, input),
  };
  const target =
    output && tool.auditTarget ? tool.auditTarget(input, output as Record<string, unknown>) : defaultTarget;
  if (!resolved.organizationId) {
    // a mutation whose declared scope resolved nothing and whose handler did not say which organization it acted in
    throw new Error(`${tool.operationId} resolved no organization for its audit entry`);
  }
  return {
    id: newId(),
    organizationId: resolved.organizationId,
    at,
    actorType: call.principal.type,
    actorId: call.principal.id,
    actorLabel: call.principal.label,
    operationId: tool.operationId,
    transport: call.transport,
    requestId: call.requestId,
    websiteId: resolved.websiteId ?? (target.type === "websites" ? target.id : undefined) ?? null,
    targetType: target.type,
    targetId: target.id ?? null,
    outcome,
  };
}

function firstPathParam(tool: Tool, input: Record<string, unknown>): string | undefined {
  const name = /\{(\w+)\}/.exec(tool.http.path)?.[1];
  const value = name ? input[name] : undefined;
  return typeof value === "string" ? value : undefined;
}

async function claimIdempotency(
  platform: Platform,
  tool: Tool,
  input: Record<string, unknown>,
  call: CallOptions,
) {
  const owner = scopeValue(tool, input, "organizationId") ?? call.principal.id;
  const key = `${owner}:${tool.operationId}:${input.idempotencyKey}`;
  const requestHash = createHash("sha256").update(stableJson(input)).digest("hex");
  const claim = await platform.db.transaction((stores) =>
    stores.idempotency.claim(key, requestHash, Date.now(), IDEMPOTENCY_TTL_MS),
  );
  if (claim.state === "claimed") return { key, replay: false as const };
  if (claim.requestHash !== requestHash) {
    throw new ApiError("conflict", "idempotencyKey: already used with different parameters.", {
      suggestion: "Use a new idempotencyKey for a different request.",
    });
  }
  if (claim.state === "in_flight") {
    throw new ApiError("conflict", "idempotencyKey: a request with this key is still in progress.", {
      suggestion: "Wait for the first request to finish, then retry to receive its result.",
    });
  }
  return { key, replay: true as const, response: claim.response };
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The value of the input field a tool declares for a scope, when given. */
function scopeValue(
  tool: Tool,
  input: Record<string, unknown>,
  kind: "websiteId" | "organizationId",
): string | undefined {
  const field = tool.scope?.[kind];
  const value = field === undefined ? undefined : input[field];
  return typeof value === "string" ? value : undefined;
}
