import {
  classifyInboundRequest,
  PROTOCOL_VERSION_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/server";
import { derivedOnce, isFrozenDeep } from "../kernel/frozen.ts";
import type { ToolCallResult } from "./server-factory.ts";
import { TextResponse } from "./text-response.ts";

const legacyVersions = new Set<string>(SUPPORTED_PROTOCOL_VERSIONS);

/** The parts of a single well-formed `tools/call` request (see `toolsCallOf`). */
export interface ToolsCall {
  id: string | number;
  name: string;
  args: Record<string, unknown> | undefined;
  /** `params._meta` as sent (the 2026-07-28 envelope), or undefined. */
  meta: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === "object" && !Array.isArray(value);

/** Whether `object` has no key but `allowed` ones. */
function onlyKeys(object: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in object) if (!allowed.has(key)) return false;
  return true;
}

const MESSAGE_KEYS = new Set(["jsonrpc", "id", "method", "params"]);
const PARAMS_KEYS = new Set(["name", "arguments", "_meta"]);

/**
 * The parts of a single well-formed `tools/call` request (a string or safe-integer id, a string name, object
 * arguments if any, no other members), or undefined. The body is parsed JSON: its objects are plain.
 */
export function toolsCallOf(body: unknown): ToolsCall | undefined {
  if (!isObject(body) || body.jsonrpc !== "2.0" || body.method !== "tools/call") return undefined;
  const { id, params } = body;
  if (typeof id !== "string" && (typeof id !== "number" || !Number.isSafeInteger(id))) return undefined;
  if (!isObject(params) || !onlyKeys(body, MESSAGE_KEYS) || !onlyKeys(params, PARAMS_KEYS)) return undefined;
  const { name, arguments: args, _meta: meta } = params;
  if (typeof name !== "string" || (args !== undefined && !isObject(args))) return undefined;
  return { id, name, args, meta };
}

/** The request headers the era classifier and the fast paths read (null: absent), each read once per request. */
export interface McpHeaders {
  accept: string | null;
  protocolVersion: string | null;
  method: string | null;
  name: string | null;
}

/** A request's `McpHeaders`. */
export function mcpHeadersOf(request: Request): McpHeaders {
  const headers = request.headers;
  return {
    accept: headers.get("accept"),
    protocolVersion: headers.get("mcp-protocol-version"),
    method: headers.get("mcp-method"),
    name: headers.get("mcp-name"),
  };
}

/** The era the SDK's `classifyInboundRequest` gives a request (`legacy`, `modern`, or a rejection). */
export type Era = ReturnType<typeof classifyInboundRequest>["kind"];

/**
 * `classifyInboundRequest(...).kind` of a request, remembered for single well-formed `tools/call` bodies (at most
 * `maxEntries` distinct header sets and names, each with up to `METAS_PER_ENTRY` envelopes). Their classification
 * reads the HTTP method, the three MCP headers and the body's JSON-RPC shape, method and `_meta` envelope, never the
 * arguments or the id's value (a string or a safe integer here), and an agent sends the same envelope with every
 * call: classifying it once (~17 µs) is enough. A call's `_meta` is compared member by member with the envelopes
 * seen before (a JSON copy of each), not serialized per call; a call like the last one is answered without looking
 * it up. Anything else is classified every time.
 */
export function eraClassifier(
  maxEntries = 256,
): (httpMethod: string, headers: McpHeaders, body: unknown, call: ToolsCall | undefined) => Era {
  const known = new Map<string, { meta: unknown; era: Era }[]>();
  /** The last call classified through `known`: most calls repeat it, and are answered without building a key. */
  let last:
    | (McpHeaders & { httpMethod: string; idType: string; tool: string; meta: unknown; era: Era })
    | undefined;
  return (httpMethod, headers, body, call) => {
    const { protocolVersion, method, name } = headers;
    if (!call) return kindOf(httpMethod, headers, body);
    const meta = call.meta;
    if (
      last &&
      last.httpMethod === httpMethod &&
      last.protocolVersion === protocolVersion &&
      last.method === method &&
      last.name === name &&
      last.idType === typeof call.id &&
      last.tool === call.name &&
      sameJson(last.meta, meta)
    ) {
      return last.era;
    }
    // Header values hold neither NUL nor a line break, so only the name (last) may contain them: unambiguous.
    const key = `${httpMethod}\n${protocolVersion ?? "\0"}\n${method ?? "\0"}\n${name ?? "\0"}\n${typeof call.id}\n${call.name}`;
    let seen = known.get(key);
    let entry = seen?.find((candidate) => sameJson(candidate.meta, meta));
    if (!entry) {
      const era = kindOf(httpMethod, headers, body);
      if (!seen) {
        if (known.size >= maxEntries) known.delete(known.keys().next().value as string);
        seen = [];
        known.set(key, seen);
      }
      if (seen.length >= METAS_PER_ENTRY) seen.shift();
      entry = { meta: meta === undefined ? undefined : JSON.parse(JSON.stringify(meta)), era };
      seen.push(entry);
    }
    const { accept } = headers;
    last = {
      httpMethod,
      accept,
      protocolVersion,
      method,
      name,
      idType: typeof call.id,
      tool: call.name,
      ...entry,
    };
    return entry.era;
  };
}

/** The SDK's classification of a request with this method, these headers and this body. */
const kindOf = (httpMethod: string, headers: McpHeaders, body: unknown): Era =>
  classifyInboundRequest({
    httpMethod,
    protocolVersionHeader: headers.protocolVersion ?? undefined,
    mcpMethodHeader: headers.method ?? undefined,
    mcpNameHeader: headers.name ?? undefined,
    body,
  }).kind;

/** Envelopes `eraClassifier` remembers per header set and tool name. */
const METAS_PER_ENTRY = 8;

/** Whether two JSON values are equal (objects member by member, in any order). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!a || !b || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let members = 0;
  for (const key in x) {
    if (!Object.hasOwn(y, key) || !sameJson(x[key], y[key])) return false;
    members++;
  }
  for (const _ in y) members--;
  return members === 0;
}

/** Runs a known tool for a fast path (the endpoint's caller, bound to the request's principal). */
type Run = (name: string, args: Record<string, unknown> | undefined) => Promise<ToolCallResult>;

/** Whether the request accepts both answers of Streamable HTTP (the SDK refuses it otherwise). */
const acceptsBoth = (accept: string | null) =>
  !!accept?.includes("application/json") && accept.includes("text/event-stream");

/**
 * The hot path of agents: a well-formed 2025-era stateless `tools/call` (`call`, from `toolsCallOf`), answered with
 * the same JSON-RPC result the SDK's stateless transport produces, without building a Server and transport per call.
 * Anything unusual (other methods, notifications, batches, odd params, a tool name that is not `known`, headers
 * the SDK would refuse) returns undefined and is served by the SDK, which owns the protocol's error answers.
 */
export function fastToolsCall(
  request: Request,
  headers: McpHeaders,
  call: ToolsCall | undefined,
  known: (name: string) => boolean,
  run: Run,
  requestId: string,
): Promise<Response> | undefined {
  if (!call || call.meta !== undefined || !known(call.name) || !acceptsBoth(headers.accept)) return undefined;
  const version = headers.protocolVersion;
  if (version !== null && !legacyVersions.has(version)) return undefined;
  const { id } = call;
  const node = onNode(request);
  return run(call.name, call.args).then((result) => jsonRpcResponse(id, result, "", requestId, node));
}

/** Texts `quoted` remembers (the last few, up to `QUOTED_MAX_CHARS` each). */
const QUOTED_ENTRIES = 8;
const QUOTED_MAX_CHARS = 64 * 1024;
const quotedTexts: string[] = [];
const quotedJson: string[] = [];
let quotedNext = 0;

/**
 * `JSON.stringify(text)` of a tool's JSON text: the escaping of its every quote costs more than serializing the
 * output did (~10 µs for a 5 KB page), and an agent that reads the same thing while nothing changed gets the same
 * text again. The last few texts are kept with their quoted form and compared by value (a length check, or a
 * memcmp that stops at the first difference), so an equal text is quoted once.
 */
export function quoted(text: string): string {
  for (let i = 0; i < quotedTexts.length; i++) if (quotedTexts[i] === text) return quotedJson[i]!;
  const json = JSON.stringify(text);
  if (text.length <= QUOTED_MAX_CHARS) {
    quotedTexts[quotedNext] = text;
    quotedJson[quotedNext] = json;
    quotedNext = (quotedNext + 1) % QUOTED_ENTRIES;
  }
  return json;
}

/** The answer up to `structuredContent`'s value (see `jsonRpcResponse`), for the JSON text of a tool's output. */
const answerHead = (text: string) =>
  `{"result":{"content":[{"type":"text","text":${quoted(text)}}],"structuredContent":${text}`;
/** An answer's head (`answerHead`) and, once an answer was sent on node:http, its UTF-8 bytes. */
interface Head {
  text: string;
  bytes?: Buffer;
}
/** The head of deep-frozen outputs (reused while the database is unchanged, their text too): built once. */
const answerHeads = new WeakMap<object, Head>();

/** Whether a request is served on node:http (srvx keeps its IncomingMessage), not in-process. */
const onNode = (request: Request) =>
  (request as { runtime?: { node?: unknown } }).runtime?.node !== undefined;

/**
 * The JSON-RPC answer `{result: {...result, ...extra}, jsonrpc, id}` as text, in the SDK's key order. A tool's
 * output is serialized once: `structuredContent` is written as the text of its one text block, which `toolCaller`
 * made with `JSON.stringify` of that same output (anything else is serialized in full). `extra` is `,"key":value…`.
 * The answer is a TextResponse with its `X-Request-Id` (one header record: no Headers object is built); in-process
 * `text()` hands its text over. On node:http (`node`) an answer with a reused head is sent as bytes: the head's,
 * encoded once, then the tail's (a 10 KB text would be flattened and encoded for every answer).
 */
function jsonRpcResponse(
  id: string | number,
  result: ToolCallResult,
  extra: string,
  requestId: string,
  node: boolean,
): Response {
  const [block, ...more] = result.content;
  const structured = "structuredContent" in result ? result.structuredContent : undefined;
  const tail = `${extra}},"jsonrpc":"2.0","id":${typeof id === "number" ? id : JSON.stringify(id)}}`;
  const init = { status: 200, headers: { "content-type": "application/json", "x-request-id": requestId } };
  if (structured === undefined || block?.type !== "text" || more.length > 0 || "isError" in result) {
    return new TextResponse(`{"result":${JSON.stringify(result).slice(0, -1)}${tail}`, init);
  }
  const head = derivedOnce(answerHeads, structured, (): Head => ({ text: answerHead(block.text) }));
  const text = `${head.text}${tail}`;
  if (!node || !isFrozenDeep(structured)) return new TextResponse(text, init);
  head.bytes ??= Buffer.from(head.text);
  const bytes = Buffer.allocUnsafe(head.bytes.length + Buffer.byteLength(tail));
  head.bytes.copy(bytes);
  bytes.write(tail, head.bytes.length);
  return new TextResponse(text, init, bytes);
}

const MODERN_VERSION = "2026-07-28";
/** The envelope keys a modern client sends in `params._meta`; anything else goes to the SDK. */
const ENVELOPE_KEYS = new Set([
  PROTOCOL_VERSION_META_KEY,
  "io.modelcontextprotocol/clientInfo",
  "io.modelcontextprotocol/clientCapabilities",
]);
/** The `,"resultType":…,"_meta":…` members of a modern answer, once per server info. */
const modernExtras = new WeakMap<object, string>();

/**
 * The same hot path for the 2026-07-28 per-request envelope: a single `tools/call` whose `_meta` claims that
 * version, with the standard headers agreeing with the body (`MCP-Protocol-Version`, `Mcp-Method`, a plain
 * `Mcp-Name`), for a `known` tool. It answers what the SDK answers: the tool result with `resultType: "complete"`
 * and the server's info in `_meta`. `Mcp-Param-*` headers do not matter: the SDK checks them only against the
 * `x-mcp-header` declarations of an McpServer's tools, and the server factory builds a low-level Server; nor does
 * `Mcp-Session-Id` (the era has no sessions). Both are tested in test/api/mcp-fast-path.test.ts. Anything else
 * returns undefined.
 */
export function fastModernToolsCall(
  request: Request,
  headers: McpHeaders,
  call: ToolsCall | undefined,
  serverInfo: { name: string; version: string },
  known: (name: string) => boolean,
  run: Run,
  requestId: string,
): Promise<Response> | undefined {
  if (!call || !isObject(call.meta) || !known(call.name)) return undefined;
  const { meta, name, id } = call;
  if (meta[PROTOCOL_VERSION_META_KEY] !== MODERN_VERSION || !onlyKeys(meta, ENVELOPE_KEYS)) return undefined;
  if (!acceptsBoth(headers.accept) || headers.protocolVersion !== MODERN_VERSION) return undefined;
  if (headers.method !== "tools/call" || headers.name !== name) return undefined;
  let extra = modernExtras.get(serverInfo);
  if (extra === undefined) {
    extra = `,"resultType":"complete","_meta":${JSON.stringify({ "io.modelcontextprotocol/serverInfo": serverInfo })}`;
    modernExtras.set(serverInfo, extra);
  }
  const members = extra;
  const node = onNode(request);
  return run(name, call.args).then((result) => jsonRpcResponse(id, result, members, requestId, node));
}
