import type { H3Event } from "h3";
import type { HttpBinding } from "../kernel/define-tool.ts";
import { ApiError } from "../kernel/errors.ts";
import type { JsonSchema } from "../kernel/json-schema.ts";
import { readBody, readMultipart } from "./body.ts";
import { queryInput } from "./http.ts";

/** Room for a multipart body's boundaries and text parts beyond the file itself. */
const FORM_OVERHEAD = 64 * 1024;
/** A large upload may take longer than a JSON body: at least two minutes. */
const MIN_FILE_TIMEOUT_MS = 120_000;

/** True for a JSON body (the route's ordinary input) — anything else on an upload route is the file. */
export const isJson = (request: Request) =>
  /^application\/(.+\+)?json\b/i.test(request.headers.get("content-type") ?? "");

/**
 * The input of an upload route from a file body: `multipart/form-data` (the part `file` and text parts), or
 * the raw bytes with the other fields in the query string. The bytes become base64 in `file.field`.
 */
export async function readFileInput(
  event: H3Event,
  file: NonNullable<HttpBinding["file"]>,
  schema: JsonSchema,
  timeoutMs: number,
): Promise<Record<string, unknown>> {
  const limit = {
    maxBytes: file.maxBytes + FORM_OVERHEAD,
    timeoutMs: Math.max(timeoutMs, MIN_FILE_TIMEOUT_MS),
  };
  const type = event.req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\b/i.test(type)) {
    const input = queryInput(event.url.searchParams, schema);
    input[file.field] = Buffer.from(
      await readBody(event.req, { ...limit, maxBytes: file.maxBytes }),
    ).toString("base64");
    return input;
  }
  const form = await readMultipart(event.req, limit);
  const input: Record<string, unknown> = {};
  let part: File | undefined;
  for (const [name, value] of form) {
    if (typeof value === "string") input[name] = coerceText(value, schema.properties?.[name]);
    else if (name === "file" && !part) part = value;
    else throw new ApiError("validation", `${name}: only the part named file may be a file.`);
  }
  if (!part) {
    throw new ApiError("validation", "file: the form has no file part.", {
      suggestion: "Send the file as the multipart part named file.",
    });
  }
  if (part.size > file.maxBytes) {
    throw new ApiError("validation", `file: larger than the ${file.maxBytes}-byte limit.`, { status: 413 });
  }
  input[file.field] = Buffer.from(await new Response(part).arrayBuffer()).toString("base64");
  if (file.nameField && input[file.nameField] === undefined && part.name) input[file.nameField] = part.name;
  return input;
}

/** A text part as the field's type wants it (numbers and booleans arrive as text). */
function coerceText(value: string, property: JsonSchema | undefined): unknown {
  return Object.values(
    queryInput(new URLSearchParams([["v", value]]), { properties: { v: property ?? {} } }),
  )[0];
}
