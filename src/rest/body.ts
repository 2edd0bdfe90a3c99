import type { IncomingMessage } from "node:http";
import { ApiError } from "../kernel/errors.ts";

/**
 * The one reader of request bodies: every route that reads a body reads it here (a test fails on any other
 * `.text()`, `.json()`, `.formData()` or `.arrayBuffer()` of a request in `src`). The body is streamed with a
 * byte cap and a deadline, never buffered past the cap: a declared `Content-Length` over the cap is refused
 * before a byte is read, a stream that outgrows it is cancelled at the first chunk past it, and a body that has
 * not arrived by the deadline (a slow-loris sender) is cancelled too. After a refusal what the client still
 * sends is read and dropped for `LINGER_MS` (so it gets to read the answer before its connection is closed under
 * it), then its connection is closed.
 */

/** How long what a client still sends after a refusal is read and dropped before its connection is closed. */
export const LINGER_MS = 1_000;

/** How much of a body a route reads, and for how long. */
export interface BodyLimit {
  /** Most bytes; a larger body is refused with 413. */
  maxBytes: number;
  /** Time the whole body may take to arrive; past it the request is refused with 408. */
  timeoutMs: number;
}

/**
 * The limit of a kind of route: `api` for JSON operations (REST, `/app-api`, MCP: `maxBodyBytes`), `form` for
 * form posts and the OAuth endpoints (`maxFormBodyBytes`); both with `bodyTimeoutMs`.
 */
export function bodyLimit(
  config: { maxBodyBytes: number; maxFormBodyBytes: number; bodyTimeoutMs: number },
  kind: "api" | "form",
): BodyLimit {
  return {
    maxBytes: kind === "api" ? config.maxBodyBytes : config.maxFormBodyBytes,
    timeoutMs: config.bodyTimeoutMs,
  };
}

/** A body this reader refused (413 too large, 408 too slow): answered with the error body. */
export class BodyRefused extends ApiError {}

const tooLarge = (maxBytes: number) =>
  new BodyRefused("validation", `Request body: larger than the ${maxBytes}-byte limit.`, {
    suggestion: `Send at most ${maxBytes} bytes in one request.`,
    status: 413,
  });

const tooSlow = (timeoutMs: number) =>
  new BodyRefused("validation", `Request body: not received within ${timeoutMs / 1000} seconds.`, {
    suggestion: "Send the whole body at once, then retry.",
    status: 408,
  });

/** What `readBody` races a read with: a read whose chunk is ready at once settles first. */
const NOT_READY = Symbol("not ready");
const notReady = Promise.resolve(NOT_READY);

/**
 * The body's bytes, at most `limit.maxBytes`, within `limit.timeoutMs` (BodyRefused otherwise). A request served on
 * node:http is read straight from its IncomingMessage (no web stream); in-process requests use their web stream.
 */
export async function readBody(request: Request, limit: BodyLimit): Promise<Uint8Array> {
  const declared = request.headers.get("content-length");
  const length = declared !== null && /^\d+$/.test(declared) ? Number(declared) : undefined;
  const message = unreadMessageOf(request);
  if (length !== undefined && length > limit.maxBytes) {
    if (message) dropRestOfMessage(message);
    else if (request.body) dropRest(request, request.body.getReader());
    throw tooLarge(limit.maxBytes);
  }
  if (message) {
    if (message.complete) return bufferedBody(message, limit);
    // All the declared bytes are buffered, though node:http has not marked the message complete yet (it does so a
    // turn later): the body is whole (node:http frames it by Content-Length), taken at once; its end still comes.
    if (length !== undefined && message.readableLength >= length) return arrivedBody(message, limit);
    return await streamedBody(message, limit);
  }
  const reader = request.body?.getReader();
  if (!reader) return new Uint8Array();
  let timer: NodeJS.Timeout | undefined;
  let deadline: Promise<never> | undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      // A body already in memory (an in-process Request made from a string or bytes) has its chunks ready at
      // once: they are taken without a timer. The first read that has to wait starts the deadline.
      const read = reader.read();
      let result = await Promise.race([read, notReady]);
      if (result === NOT_READY) {
        deadline ??= new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(tooSlow(limit.timeoutMs)), limit.timeoutMs);
        });
        result = await Promise.race([read, deadline]);
      }
      const { done, value } = result;
      if (done) break;
      size += value.byteLength;
      if (size > limit.maxBytes) throw tooLarge(limit.maxBytes);
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof BodyRefused) dropRest(request, reader);
    else reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

const utf8 = new TextDecoder();

/** The body as UTF-8 text, bounded as `readBody`. */
export async function readBodyText(request: Request, limit: BodyLimit): Promise<string> {
  return utf8.decode(await readBody(request, limit));
}

/** The fields of an `application/x-www-form-urlencoded` body, bounded as `readBody`. */
export async function readUrlEncoded(request: Request, limit: BodyLimit): Promise<URLSearchParams> {
  return new URLSearchParams(await readBodyText(request, limit));
}

/** The parts of a `multipart/form-data` body, bounded as `readBody`; malformed forms are `validation`. */
export async function readMultipart(request: Request, limit: BodyLimit): Promise<FormData> {
  const bytes = await readBody(request, limit);
  const response = new Response(bytes as Uint8Array<ArrayBuffer>, {
    headers: { "content-type": request.headers.get("content-type") ?? "" },
  });
  try {
    return await response.formData();
  } catch {
    throw new ApiError("validation", "Request body: not a well-formed multipart/form-data body.", {
      suggestion: "Send the file as the part named file, with a boundary matching the Content-Type header.",
    });
  }
}

/**
 * Reads and drops what the client still sends after a refusal, keeping nothing: when the body ends within
 * `LINGER_MS` the connection stays usable; past it, the stream is cancelled and the connection closed.
 */
function dropRest(request: Request, reader: ReadableStreamDefaultReader<Uint8Array>): void {
  // Taken now: cancelling the stream detaches the request from its connection.
  const socket = socketOf(request);
  const stop = () => {
    clearTimeout(timer);
    socket?.destroy();
    reader.cancel().catch(() => undefined);
  };
  const timer = setTimeout(stop, LINGER_MS);
  void (async () => {
    try {
      for (;;) {
        if ((await reader.read()).done) return clearTimeout(timer);
      }
    } catch {
      stop();
    }
  })();
}

/** The connection of a request served on node:http (srvx keeps the IncomingMessage); none in-process. */
function socketOf(request: Request): { destroy(): void } | undefined {
  return (request as NodeServed).runtime?.node?.req?.socket;
}

/** A request as srvx's node adapter hands it over: the IncomingMessage it was made from. */
type NodeServed = { runtime?: { node?: { req?: IncomingMessage } } };

/**
 * The IncomingMessage behind a request served on node:http, when nothing has started reading its body (no web
 * stream made from it, no listener): then it is read directly. Anything else (in-process requests) is undefined.
 */
function unreadMessageOf(request: Request): IncomingMessage | undefined {
  const message = (request as NodeServed).runtime?.node?.req;
  if (!message || message.readableFlowing !== null || message.readableDidRead || request.bodyUsed)
    return undefined;
  return message;
}

/** A body that has arrived whole (node:http parsed its end): taken from the message's buffer at once. */
function bufferedBody(message: IncomingMessage, limit: BodyLimit): Uint8Array {
  const chunks: Buffer[] = [];
  let size = 0;
  for (let chunk = message.read() as Buffer | null; chunk !== null; chunk = message.read() as Buffer | null) {
    size += chunk.byteLength;
    chunks.push(chunk);
  }
  if (size > limit.maxBytes) throw tooLarge(limit.maxBytes);
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}

/**
 * A body whose declared bytes are all in the message's buffer before node:http marks it complete: taken from the
 * buffer at once, as `bufferedBody`, and the message left flowing so that its end (which nothing waits for) comes.
 */
function arrivedBody(message: IncomingMessage, limit: BodyLimit): Uint8Array {
  const bytes = bufferedBody(message, limit);
  message.resume();
  return bytes;
}

/** A body still arriving: read as it comes, with one byte cap and one deadline timer. */
function streamedBody(message: IncomingMessage, limit: BodyLimit): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (error?: unknown) => {
      clearTimeout(timer);
      message.off("data", onData).off("end", onEnd).off("error", finish).off("close", onClose);
      if (error === undefined) return resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
      if (error instanceof BodyRefused) dropRestOfMessage(message);
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit.maxBytes) finish(tooLarge(limit.maxBytes));
      else chunks.push(chunk);
    };
    const onEnd = () => finish();
    const onClose = () => finish(new Error("Request body: the connection closed before the body ended."));
    const timer = setTimeout(() => finish(tooSlow(limit.timeoutMs)), limit.timeoutMs);
    message.on("data", onData).on("end", onEnd).on("error", finish).on("close", onClose);
  });
}

/** `dropRest` of a message read on node:http: what still comes is dropped for `LINGER_MS`, then it is closed. */
function dropRestOfMessage(message: IncomingMessage): void {
  if (message.readableEnded) return;
  const timer = setTimeout(() => message.socket?.destroy(), LINGER_MS);
  message
    .on("error", () => undefined)
    .once("end", () => clearTimeout(timer))
    .resume();
}
