import type { Tool } from "../kernel/define-tool.ts";
import { errorStatus } from "../kernel/errors.ts";
import { type JsonSchema, jsonSchemasOf, pathParamsOf } from "../kernel/json-schema.ts";
import type { Platform } from "../kernel/platform.ts";
import { resourceOf } from "../oauth/settings.ts";

const errorSchema: JsonSchema = {
  type: "object",
  required: ["kind", "message"],
  properties: {
    kind: { type: "string", enum: Object.keys(errorStatus), description: "Stable category; branch on it." },
    message: { type: "string", description: "Human-readable; wording may change." },
    suggestion: { type: "string", description: "Next step, often naming the operation to call." },
    validValues: { type: "array", items: {}, description: "Accepted values of a closed-set field." },
    retryAfterSeconds: { type: "number", description: "On rate limits; mirrors Retry-After." },
    details: { type: "array", items: {}, description: "Structured details, such as build diagnostics." },
    issues: {
      type: "array",
      description:
        "On validation errors: every problem of the input, the first being the one message names. Additive to the contract's fields.",
      items: {
        type: "object",
        required: ["path", "message"],
        properties: {
          path: {
            type: "string",
            description:
              "Where: a path into the input (name, access.role, items[0].title); empty for the input itself.",
          },
          message: { type: "string", description: "What is wrong there." },
          validValues: { type: "array", items: {}, description: "Accepted values of a closed-set field." },
        },
      },
    },
  },
};

const errorResponses = {
  "400": "Validation failed; the message names the first invalid field, issues lists every problem.",
  "401": "Missing, malformed, expired or revoked key, or a browser session cookie.",
  "403": "The key's role lacks the operation's capability, or no grant on the organization.",
  "404": "Not found, or outside the key's scope.",
  "408": "The request body did not arrive within the read timeout.",
  "409": "Conflict: duplicate, cap reached, or an idempotency key in use.",
  "413": "Request body larger than the limit.",
  "429": "Rate limited; retry after Retry-After seconds.",
  "500": "Service failure; retry with backoff.",
};

/** Splits a tool's input schema into path parameters, query parameters (GET) and a JSON body (others). */
export function restShapeOf(tool: Tool) {
  const { input } = jsonSchemasOf(tool);
  const properties = input.properties ?? {};
  const required = new Set(input.required ?? []);
  const pathNames = pathParamsOf(tool.http.path);
  const param = (name: string, where: "path" | "query") => ({
    name,
    in: where,
    required: where === "path" || required.has(name),
    ...(properties[name]?.description ? { description: properties[name].description } : {}),
    schema: properties[name] ?? {},
  });
  const rest = Object.keys(properties).filter((name) => !pathNames.includes(name));
  const parameters = [
    ...pathNames.map((name) => param(name, "path")),
    ...(tool.http.method === "GET" ? rest.map((name) => param(name, "query")) : []),
  ];
  const { properties: _p, required: _r, ...schemaRest } = input;
  const body: JsonSchema | undefined =
    tool.http.method === "GET"
      ? undefined
      : {
          ...schemaRest,
          properties: Object.fromEntries(rest.map((name) => [name, properties[name]!])),
          ...(input.required ? { required: input.required.filter((name) => !pathNames.includes(name)) } : {}),
        };
  return { parameters, body };
}

/**
 * The media types of a body: JSON, and for upload routes also the file itself (other fields in the query) and
 * a multipart form whose part `file` is the file.
 */
function bodyContent(
  tool: Tool,
  body: JsonSchema,
): Record<string, { schema: JsonSchema; encoding?: unknown }> {
  const file = tool.http.file;
  if (!file) return { "application/json": { schema: body } };
  const { [file.field]: _bytes, ...others } = (body.properties ?? {}) as Record<string, JsonSchema>;
  const required = ((body.required as string[] | undefined) ?? []).filter(
    (name) => name !== file.field && name !== file.nameField,
  );
  return {
    "application/json": { schema: body },
    "application/octet-stream": {
      schema: {
        type: "string",
        format: "binary",
        description: `The file itself (up to ${file.maxBytes} bytes); the other fields (${Object.keys(others).join(", ")}) as query parameters.`,
      },
    },
    "multipart/form-data": {
      schema: {
        type: "object",
        required: ["file", ...required],
        properties: { file: { type: "string", format: "binary", description: "The file." }, ...others },
      },
    },
  };
}

function operationOf(tool: Tool) {
  const { parameters, body } = restShapeOf(tool);
  const { output } = jsonSchemasOf(tool);
  return {
    operationId: tool.operationId,
    tags: [tool.group.tag],
    summary: tool.title,
    description: tool.description,
    ...(parameters.length ? { parameters } : {}),
    ...(body ? { requestBody: { required: true, content: bodyContent(tool, body) } } : {}),
    responses: {
      "200": tool.textStream
        ? {
            description: "Success: every page's text as one streamed download (MCP returns the JSON pages).",
            ...(tool.textStream.headers
              ? {
                  headers: Object.fromEntries(
                    Object.entries(tool.textStream.headers).map(([name, { description }]) => [
                      name,
                      { description, schema: { type: "string" } },
                    ]),
                  ),
                }
              : {}),
            content: { [tool.textStream.contentType.split(";")[0]!]: { schema: { type: "string" } } },
          }
        : { description: "Success.", content: { "application/json": { schema: output } } },
      ...Object.fromEntries(
        Object.keys(errorResponses).map((status) => [status, { $ref: `#/components/responses/E${status}` }]),
      ),
    },
    "x-service-required-capability": tool.operationId,
    "x-service-read-only": tool.annotations.readOnly,
    "x-service-destructive": tool.annotations.destructive,
    "x-service-idempotent": tool.annotations.idempotent,
    "x-service-open-world": tool.annotations.openWorld,
    "x-service-cost": tool.cost,
    ...(tool.mcp === false ? {} : { "x-mcp-tool-name": tool.mcpName }),
  };
}

/** The OpenAPI 3.1.0 description of `/v1`, derived from the registry. */
export function openApiDocument(platform: Platform) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const tool of platform.registry.tools) {
    paths[tool.http.path] ??= {};
    paths[tool.http.path]![tool.http.method.toLowerCase()] = operationOf(tool);
  }
  const tags = [...new Set(platform.registry.tools.map((tool) => tool.group))].map((group) => ({
    name: group.tag,
    description: group.description,
  }));
  return {
    openapi: "3.1.0",
    info: {
      title: "Sitewright API",
      version: "1.0.0",
      description: `Create, edit, publish and operate websites. Every operation is also an MCP tool at ${resourceOf(platform)} with the same permissions, rate limits and audit trail.`,
    },
    servers: [{ url: platform.config.baseUrl }],
    security: [{ bearerAuth: [] }],
    tags,
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "An API key." } },
      schemas: { Error: errorSchema },
      responses: Object.fromEntries(
        Object.entries(errorResponses).map(([status, description]) => [
          `E${status}`,
          {
            description,
            content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
          },
        ]),
      ),
    },
  };
}
