import type { H3 } from "h3";
import { getRouterParams } from "h3";
import { authenticate } from "../auth/authenticate.ts";
import { ApiError, toApiError } from "../kernel/errors.ts";
import { jsonSchemasOf, pathParamsOf } from "../kernel/json-schema.ts";
import { callTool } from "../kernel/pipeline.ts";
import type { Platform } from "../platform.ts";
import { errorResponse, json, queryInput, readJsonObject } from "./http.ts";
import { openApiDocument } from "./openapi.ts";
import { clientIp, requestIdOf } from "./request-meta.ts";

/** Registers one REST route per tool under `/v1`, plus the OpenAPI document and the `/v1` fallback. */
export function registerRestRoutes(app: H3, platform: Platform): void {
  const document = JSON.stringify(openApiDocument(platform));
  app.get(
    "/v1/openapi.json",
    () => new Response(document, { headers: { "content-type": "application/json" } }),
  );

  for (const tool of platform.registry.tools) {
    const route = `/v1${tool.http.path.replace(/\{(\w+)\}/g, ":$1")}`;
    const pathParams = pathParamsOf(tool.http.path);
    const { input: schema } = jsonSchemasOf(tool);
    app.on(tool.http.method, route, async (event) => {
      try {
        const principal = await authenticate(platform, event.req, clientIp(event, platform));
        const input =
          tool.http.method === "GET"
            ? queryInput(event.url.searchParams, schema)
            : await readJsonObject(event.req, platform.config.maxBodyBytes);
        const params = getRouterParams(event, { decode: true });
        for (const name of pathParams) {
          if (name in input && input[name] !== params[name]) {
            throw new ApiError(
              "validation",
              `${name}: given in both the path and the request; send it in the path only.`,
            );
          }
          input[name] = params[name];
        }
        const output = await callTool(platform, tool, input, {
          principal,
          transport: "rest",
          requestId: requestIdOf(event),
        });
        return json(output);
      } catch (error) {
        return errorResponse(toApiError(error));
      }
    });
  }

  app.all("/v1/**", (event) =>
    errorResponse(
      new ApiError("not_found", `No operation at ${event.req.method} ${event.url.pathname}.`, {
        suggestion: "See GET /v1/openapi.json for every operation, its method and path.",
      }),
    ),
  );
}
