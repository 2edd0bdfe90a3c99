import { createHash } from "node:crypto";
import type { Stores } from "../db/stores/index.ts";
import { type Access, createAccess } from "./access.ts";
import type { PrepareContext, ToolContext, Transport } from "./context.ts";
import type { Tool } from "./define-tool.ts";
import { ApiError, toApiError } from "./errors.ts";
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
  if (!canCall(principal, tool)) {
    if (isSignedOut(tool.access)) {
      throw new ApiError(
        "forbidden",
        `${tool.operationId} is only for signed-out visitors of the dashboard.`,
        {
          suggestion: "Create accounts on the dashboard's sign-up page, signed out.",
        },
      );
    }
    if (principal.readOnly && !tool.annotations.readOnly) {
      throw new ApiError("forbidden", `This connection is read-only; ${tool.operationId} changes data.`, {
        suggestion: "Reconnect without ?readonly=1, or with a consent that grants write access.",
      });
    }
    if (principal.toolsets && !principal.toolsets.includes(tool.group.toolset)) {
      throw new ApiError(
        "forbidden",
        `${tool.operationId} belongs to the toolset '${tool.group.toolset}', which this connection did not pick.`,
        {
          suggestion: `Reconnect with '${tool.group.toolset}' in ?toolsets= (or the X-MCP-Toolsets header); an OAuth connection must also be authorized again with '${tool.group.toolset}' checked on the consent page.`,
        },
      );
    }
    if (isPersonal(tool.access)) {
      throw new ApiError(
        "forbidden",
        `${tool.operationId} can only be called by a signed-in user, not with an API key or an OAuth token.`,
        {
          suggestion: "Sign in to the dashboard and do this there (or through its same-origin API).",
        },
      );
    }
    throw new ApiError("forbidden", `This credential's role does not include ${tool.operationId}.`, {
      suggestion: "Use a key whose role covers this operation, or ask an organization admin for one.",
    });
  }
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
  const now = Date.now();
  let prepared: unknown;
  const committed: (() => Promise<void>)[] = [];
  const afterCommit = async () => {
    for (const work of committed.splice(0)) {
      await work().catch((error) =>
        platform.log.error(`${tool.operationId} after-commit work failed`, error),
      );
    }
  };
  const context = (stores: Stores, access: Access): ToolContext<unknown> => ({
    principal,
    stores,
    access,
    platform,
    requestId: call.requestId,
    transport: call.transport,
    now,
    prepared,
    afterCommit: (work) => void committed.push(work),
  });
  const scoped = async (stores: Stores) => {
    const access = createAccess(principal, tool, stores);
    const website = scopeValue(tool, input, "websiteId");
    if (website !== undefined) await access.website(website);
    const organization = scopeValue(tool, input, "organizationId");
    if (organization !== undefined) await access.organization(organization);
    return access;
  };

  let resolved: Access["resolved"] = {};
  let prepareContext: PrepareContext | undefined;
  // A tool's slow part (a build) runs with no unit of work open, after its own short scope check; the handler's
  // unit of work below scope-checks again (the website may have gone meanwhile).
  const prepare = async (): Promise<void> => {
    if (!tool.prepare) return;
    const access = await platform.db.read(scoped);
    resolved = access.resolved;
    const prepareWith: PrepareContext = {
      principal,
      platform,
      requestId: call.requestId,
      transport: call.transport,
      now,
      resolved: { ...access.resolved },
      read: (work) => platform.db.read(work),
    };
    prepared = await tool.prepare(input, prepareWith);
    prepareContext = prepareWith;
  };

  if (tool.annotations.readOnly) {
    await prepare();
    const output = await platform.db.read(async (stores) =>
      tool.handler(input, context(stores, await scoped(stores))),
    );
    const parsed = fitOutput(tool.output, output);
    await afterCommit();
    return parsed;
  }

  const idempotency =
    tool.idempotency && typeof input.idempotencyKey === "string"
      ? await claimIdempotency(platform, tool, input, call)
      : undefined;
  if (idempotency?.replay) return idempotency.response;
  try {
    await prepare();
    const result = await platform.db.transaction(async (stores) => {
      committed.length = 0; // a retried unit of work starts over
      const access = await scoped(stores);
      resolved = access.resolved;
      const output = fitOutput(tool.output, await tool.handler(input, context(stores, access)));
      await stores.audit.append(auditEntry(tool, call, now, access.resolved, input, output, "success"));
      if (idempotency) await stores.idempotency.complete(idempotency.key, output);
      return output;
    });
    await afterCommit();
    return result;
  } catch (error) {
    const failure = toApiError(error);
    if (prepareContext && tool.abandon) {
      await tool
        .abandon(prepared, prepareContext)
        .catch((cause) => platform.log.error(`${tool.operationId} abandon failed`, cause));
    }
    if (idempotency) await platform.db.transaction((stores) => stores.idempotency.release(idempotency.key));
    if (resolved.organizationId) {
      const entry = auditEntry(tool, call, now, resolved, input, undefined, failure.kind);
      await platform.db.transaction((stores) => stores.audit.append(entry)).catch(() => undefined);
    }
    throw error;
  }
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
