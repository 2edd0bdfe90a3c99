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

/**
 * The body's bytes, at most `limit.maxBytes`, within `limit.timeoutMs` (BodyRefused otherwise). A request served on
 * node:http is read straight from its IncomingMessage (no web stream); in-process requests use their web stream.
 */
export function readBody(request: Request, limit: BodyLimit): Promise<Uint8Array> {
  try {
    const declared = request.headers.get("content-length");
    const length = declared !== null && /^\d+$/.test(declared) ? Number(declared) : undefined;
    const message = unreadMessageOf(request);
    if (length !== undefined && length > limit.maxBytes) {
      if (message) dropRestOfMessage(message);
      else if (request.body) dropRest(request, request.body.getReader());
      throw tooLarge(limit.maxBytes);
    }
    if (message) {
      if (message.complete) return Promise.resolve(bufferedBody(message, limit));
      // All the declared bytes are buffered, though node:http has not marked the message complete yet (it does so
      // a turn later): the body is whole (node:http frames it by Content-Length), taken at once; its end still comes.
      if (length !== undefined && message.readableLength >= length)
        return Promise.resolve(arrivedBody(message, limit));
      return streamedBody(message, limit);
    }
    const reader = request.body?.getReader();
    return reader ? webStreamBody(request, reader, limit) : Promise.resolve(new Uint8Array());
  } catch (error) {
    return Promise.reject(error);
  }
}

/** A settled promise: a reaction on it runs after those of the reads already settled when it was queued. */
const settledAlready = Promise.resolve();

const utf8 = new TextDecoder();
const decoded = (bytes: Uint8Array) => utf8.decode(bytes);

/** The body as UTF-8 text, bounded as `readBody`. */
export function readBodyText(request: Request, limit: BodyLimit): Promise<string> {
  return readBody(request, limit).then(decoded);
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
 * A web-stream body (in-process requests), read chunk by chunk with the byte cap and one deadline timer. A body
 * already in memory (a Request made from a string or bytes) has its chunks ready at once: they are taken without a
 * timer. Whether a read had to wait is known without a race per chunk: a read that is already settled runs its
 * reaction before a check queued right after it (checks pair with reads in order until the timer runs), so the
 * first read that waits starts the deadline.
 */
function webStreamBody(
  request: Request,
  reader: ReadableStreamDefaultReader<Uint8Array>,
  limit: BodyLimit,
): Promise<Uint8Array> {
  return new Promise((resolve, reject) => new WebStreamRead(request, reader, limit, resolve, reject).next());
}

/** The state of one `webStreamBody` (a class: per-request named closures cost a `__name` call each under tsx). */
class WebStreamRead {
  readonly chunks: Uint8Array[] = [];
  size = 0;
  settled = 0;
  checked = 0;
  over = false;
  timer: NodeJS.Timeout | undefined;
  readonly request: Request;
  readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly limit: BodyLimit;
  readonly resolve: (bytes: Uint8Array) => void;
  readonly reject: (error: unknown) => void;

  constructor(
    request: Request,
    reader: ReadableStreamDefaultReader<Uint8Array>,
    limit: BodyLimit,
    resolve: (bytes: Uint8Array) => void,
    reject: (error: unknown) => void,
  ) {
    this.request = request;
    this.reader = reader;
    this.limit = limit;
    this.resolve = resolve;
    this.reject = reject;
  }

  next(): void {
    this.reader.read().then(
      (result) => this.onRead(result),
      (error: unknown) => this.finish(error ?? new Error("Request body: the stream failed.")),
    );
    if (this.timer === undefined) void settledAlready.then(() => this.check());
  }

  onRead(result: ReadableStreamReadResult<Uint8Array>): void {
    this.settled++;
    if (this.over) return;
    if (result.done) {
      this.finish();
      return;
    }
    this.size += result.value.byteLength;
    if (this.size > this.limit.maxBytes) {
      this.finish(tooLarge(this.limit.maxBytes));
      return;
    }
    this.chunks.push(result.value);
    this.next();
  }

  /** After the read this check pairs with: when it has not settled, the deadline starts. */
  check(): void {
    this.checked++;
    if (this.settled < this.checked && this.timer === undefined && !this.over) {
      const { timeoutMs } = this.limit;
      this.timer = setTimeout(() => this.finish(tooSlow(timeoutMs)), timeoutMs);
    }
  }

  finish(error?: unknown): void {
    if (this.over) return;
    this.over = true;
    clearTimeout(this.timer);
    const { chunks } = this;
    if (error === undefined) {
      this.resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.size));
      return;
    }
    if (error instanceof BodyRefused) dropRest(this.request, this.reader);
    else this.reader.cancel().catch(() => undefined);
    this.reject(error);
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
