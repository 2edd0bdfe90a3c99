import { ApiError, type ErrorBody } from "../kernel/errors.ts";
import { derivedOnce, isFrozenDeep } from "../kernel/frozen.ts";
import { checkJsonShape } from "../kernel/json-depth.ts";
import type { JsonSchema } from "../kernel/json-schema.ts";
import { type BodyLimit, readBodyText } from "./body.ts";

/** A JSON response with the API's headers. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}

/** UTF-8 JSON of deep-frozen bodies (outputs reused while the database is unchanged): they cannot change. */
const encoded = new WeakMap<object, Uint8Array<ArrayBuffer>>();
const encoder = new TextEncoder();

/** The JSON of `body`: a string, or for a deep-frozen body its bytes, serialized and encoded once. */
const jsonBody = (body: unknown): string | Uint8Array<ArrayBuffer> =>
  isFrozenDeep(body) ? derivedOnce(encoded, body, encodeJson) : JSON.stringify(body);
const encodeJson = (body: object) => encoder.encode(JSON.stringify(body));

/** The 200 JSON answer of an operation route, built with its request's `X-Request-Id`: one header object. */
export function jsonWithRequestId(body: unknown, requestId: string): Response {
  return new Response(jsonBody(body), {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      "x-request-id": requestId,
    },
  });
}

/** Projects an ApiError as its status and the error body of the API contract (docs/api-contract.md). */
export function errorResponse(error: ApiError, nameOperation?: (id: string) => string): Response {
  const body: ErrorBody = error.toBody(nameOperation);
  return json(body, error.status, error.options.headers);
}

/** Reads a JSON object body (bounded, see body.ts): 400 for invalid JSON or a non-object. */
export async function readJsonObject(request: Request, limit: BodyLimit): Promise<Record<string, unknown>> {
  const text = await readBodyText(request, limit);
  if (text.trim() === "") return {};
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw new ApiError("validation", "Request body: must be sent as application/json.", {
      suggestion: "Set 'Content-Type: application/json'.",
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError("validation", "Request body: is not valid JSON.");
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw new ApiError("validation", "Request body: must be a JSON object.");
  }
  checkJsonShape(value);
  return value as Record<string, unknown>;
}

/** Query parameters typed by the input schema: numbers, booleans and arrays are coerced; the rest stay strings. */
export function queryInput(params: URLSearchParams, schema: JsonSchema): Record<string, unknown> {
  return queryReader(schema)(params);
}

type Coerce = (values: string[]) => unknown;

/** `queryInput` for one schema, its coercions worked out once (a route builds it when it is registered). */
export function queryReader(schema: JsonSchema): (params: URLSearchParams) => Record<string, unknown> {
  const coercers = new Map<string, Coerce>(
    Object.entries(schema.properties ?? {}).map(([name, property]) => [name, coercer(property)]),
  );
  return (params) => {
    // One pass: each name's values in order, names in the order they first appear.
    const all = new Map<string, string[]>();
    for (const [name, value] of params) {
      const values = all.get(name);
      if (values) values.push(value);
      else all.set(name, [value]);
    }
    const input: Record<string, unknown> = {};
    for (const [name, values] of all) {
      const coerce = coercers.get(name);
      input[name] = coerce ? coerce(values) : values[values.length - 1];
    }
    return input;
  };
}

const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

function coercer(schema: JsonSchema): Coerce {
  const branches = [schema, ...((schema.anyOf as JsonSchema[] | undefined) ?? [])];
  const types = branches.flatMap((s) => s.type);
  if (types.includes("array")) {
    const items = branches.find((s) => s.items)?.items as JsonSchema | undefined;
    const item = coercer(items ?? {});
    return (values) => values.flatMap((v) => v.split(",")).map((v) => item([v]));
  }
  const numeric = types.includes("integer") || types.includes("number");
  const boolean = types.includes("boolean");
  return (values) => {
    const value = values[values.length - 1]!;
    if (numeric && NUMBER.test(value)) return Number(value);
    if (boolean && (value === "true" || value === "false")) return value === "true";
    return value;
  };
}
