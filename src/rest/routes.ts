import type { H3, H3Event } from "h3";
import { getRouterParams } from "h3";
import { authenticate } from "../auth/authenticate.ts";
import type { Tool } from "../kernel/define-tool.ts";
import { ApiError, toApiError } from "../kernel/errors.ts";
import { jsonSchemasOf, pathParamsOf } from "../kernel/json-schema.ts";
import { callTool } from "../kernel/pipeline.ts";
import type { Platform } from "../kernel/platform.ts";
import type { Principal } from "../kernel/principal.ts";
import { noteOperation } from "../kernel/request-scope.ts";
import { bodyLimit } from "./body.ts";
import { isJson, readFileInput } from "./file-input.ts";
import { errorResponse, jsonWithRequestId, queryReader, readJsonObject } from "./http.ts";
import { openApiDocument } from "./openapi.ts";
import { clientIp, OWN_REQUEST_ID, requestIdOf, stampRequestId } from "./request-meta.ts";

/** Registers one REST route per tool under `/v1`, plus the OpenAPI document and the `/v1` fallback. */
export function registerRestRoutes(app: H3, platform: Platform): void {
  const document = JSON.stringify(openApiDocument(platform));
  app.get(
    "/v1/openapi.json",
    () => new Response(document, { headers: { "content-type": "application/json" } }),
  );

  registerOperationRoutes(app, platform, "/v1", "rest", (event) =>
    authenticate(platform, event.req, clientIp(event, platform)).catch((error: unknown) => {
      throw withBearerChallenge(error, event.req);
    }),
  );
  app.all("/v1/**", unmatchedOperation(platform, "/v1"));
}

/**
 * A 401 of the REST API with its RFC 6750 challenge: `WWW-Authenticate: Bearer realm="sitewright"`, and
 * `error="invalid_token"` when a credential was sent.
 */
function withBearerChallenge(error: unknown, request: Request): unknown {
  if (!(error instanceof ApiError) || error.kind !== "unauthorized") return error;
  const presented = request.headers.has("authorization") ? ', error="invalid_token"' : "";
  return new ApiError(error.kind, error.message, {
    ...error.options,
    headers: { ...error.options.headers, "WWW-Authenticate": `Bearer realm="sitewright"${presented}` },
  });
}

/**
 * The answer to a request no operation route took: 405 with `Allow` when the path is an operation's with another
 * method (from the registry's bindings), else 404.
 */
export function unmatchedOperation(platform: Platform, prefix: string) {
  const bindings = platform.registry.tools.map((tool) => ({
    method: tool.http.method,
    pattern: new RegExp(`^${escapeRegExp(prefix)}${tool.http.path.replace(/\{\w+\}/g, "[^/]+")}/?$`),
  }));
  return (event: H3Event): Response => {
    const path = event.url.pathname;
    const allow = [...new Set(bindings.filter((b) => b.pattern.test(path)).map((b) => b.method))].sort();
    if (allow.length > 0) {
      return errorResponse(
        new ApiError(
          "validation",
          `${event.req.method} is not an operation of ${path}; it takes ${allow.join(", ")}.`,
          {
            status: 405,
            headers: { Allow: allow.join(", ") },
            suggestion: `See GET /v1/openapi.json for the operations of ${path}.`,
          },
        ),
      );
    }
    return errorResponse(
      new ApiError("not_found", `No operation at ${event.req.method} ${path}.`, {
        suggestion: "See GET /v1/openapi.json for every operation, its method and path.",
      }),
    );
  };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Resolves a request's principal, or throws the ApiError to answer with (401, 403, 429). */
export type Authenticator = (event: H3Event) => Promise<Principal>;

/**
 * One route per tool under `prefix` (its REST path and method), each authenticated by `authenticator` and
 * run through the one pipeline. REST uses it with API keys; the app host's same-origin API with the session.
 */
export function registerOperationRoutes(
  app: H3,
  platform: Platform,
  prefix: string,
  transport: "rest" | "app",
  authenticator: Authenticator,
): void {
  for (const tool of platform.registry.tools) {
    const route = `${prefix}${tool.http.path.replace(/\{(\w+)\}/g, ":$1")}`;
    const pathParams = pathParamsOf(tool.http.path);
    const { input: schema } = jsonSchemasOf(tool);
    const readQuery = queryReader(schema);
    app.on(
      tool.http.method,
      route,
      async (event) => {
        noteOperation(tool.operationId);
        try {
          const principal = await authenticator(event);
          const input =
            tool.http.method === "GET"
              ? readQuery(event.url.searchParams)
              : tool.http.file && !isJson(event.req)
                ? await readFileInput(event, tool.http.file, schema, platform.config.bodyTimeoutMs)
                : await readJsonObject(event.req, bodyLimit(platform.config, "api"));
          const params = pathParams.length > 0 ? getRouterParams(event, { decode: true }) : {};
          for (const name of pathParams) {
            if (name in input && input[name] !== params[name]) {
              throw new ApiError(
                "validation",
                `${name}: given in both the path and the request; send it in the path only.`,
              );
            }
            input[name] = params[name];
          }
          const options = { principal, transport, requestId: requestIdOf(event) };
          const output = (await callTool(platform, tool, input, options)) as Record<string, unknown>;
          if (!tool.textStream) return jsonWithRequestId(output, options.requestId);
          return stampRequestId(
            event,
            textStream(
              tool.textStream,
              input,
              output,
              async (page) => (await callTool(platform, tool, page, options)) as Record<string, unknown>,
            ),
          );
        } catch (error) {
          return stampRequestId(event, errorResponse(toApiError(error)));
        }
      },
      { meta: OWN_REQUEST_ID },
    );
  }
}

/**
 * A streamed text download of a paged operation: the first page's text, then each next page's, every page run
 * through the pipeline. A failure after the first page ends the stream early (the status is already sent).
 */
function textStream(
  stream: NonNullable<Tool["textStream"]>,
  input: Record<string, unknown>,
  first: Record<string, unknown>,
  call: (input: Record<string, unknown>) => Promise<Record<string, unknown>>,
): Response {
  const encoder = new TextEncoder();
  let next: Record<string, unknown> | null = first;
  let previous = first;
  let isFirst = true;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (next === null) {
        const cursor = stream.nextCursor(previous);
        if (!cursor) return controller.close();
        next = await call({ ...input, cursor });
      }
      controller.enqueue(encoder.encode(stream.text(next, isFirst)));
      isFirst = false;
      previous = next;
      next = null;
    },
  });
  const extra = Object.entries(stream.headers ?? {}).flatMap(([name, header]) => {
    const value = header.value(first);
    return value === null ? [] : [[name, value] as const];
  });
  return new Response(body, {
    headers: {
      ...Object.fromEntries(extra),
      "content-type": stream.contentType,
      "content-disposition": `attachment; filename="${stream.filename(input)}"`,
      "cache-control": "no-store",
    },
  });
}
