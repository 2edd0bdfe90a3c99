import { readdirSync, readFileSync } from "node:fs";
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { toNodeHandler } from "srvx/node";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../../src/kernel/errors.ts";
import { type BodyLimit, LINGER_MS, readBody, readBodyText } from "../../src/rest/body.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const READER = "src/rest/body.ts";
const KiB = 1024;

/**
 * Where `source` reads a request body by itself: a body method (`text()`, `json()`, `formData()`,
 * `arrayBuffer()`, `blob()`, `bytes()`) or `getReader()` called on anything but a response, or an import of h3's
 * body helpers. Lines are 1-based.
 */
function bodyReads(source: string): { line: number; text: string }[] {
  const found: { line: number; text: string }[] = [];
  const lineOf = (offset: number) => source.slice(0, offset).split("\n").length;
  const call =
    /([A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)*)\s*\??\.\s*(text|json|formData|arrayBuffer|blob|bytes|getReader)\s*\(\s*\)/g;
  for (const match of source.matchAll(call)) {
    const last = match[1]!.split(/\??\./).at(-1)!;
    if (!/^(res|response|\w+Response)$/i.test(last))
      found.push({ line: lineOf(match.index), text: match[0] });
  }
  const h3Helpers =
    /import\s*\{[^}]*\b(readBody|readValidatedBody|readFormData|readRawBody)\b[^}]*\}\s*from\s*["']h3["']/g;
  for (const match of source.matchAll(h3Helpers)) found.push({ line: lineOf(match.index), text: match[1]! });
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

describe("one bounded reader of request bodies", () => {
  it("no file in src reads a request body except src/rest/body.ts", () => {
    const offenders = sourceFiles(join(root, "src"))
      .map((path) => relative(root, path))
      .filter((path) => path !== READER)
      .flatMap((path) =>
        bodyReads(readFileSync(join(root, path), "utf8")).map((hit) => `${path}:${hit.line}: ${hit.text}`),
      );
    expect(
      offenders,
      "read request bodies with readBody/readBodyText/readUrlEncoded of src/rest/body.ts",
    ).toEqual([]);
  });

  it("the check finds direct reads however the request is reached, and lets responses be", () => {
    const flagged = [
      "const text = await event.req.text();",
      "for (const [k, v] of await ctx.event.req.formData()) form.append(k, v);",
      "const body = await request.json();",
      "const bytes = await raw.arrayBuffer();",
      "const reader = request.body?.getReader();",
      'import { type H3Event, readBody } from "h3";',
      'import {\n  getQuery,\n  readValidatedBody,\n} from "h3";',
    ];
    for (const line of flagged) expect(bodyReads(line), line).toHaveLength(1);
    const allowed = [
      "const document = await response.json();",
      "const html = await res.text();",
      "const body = await upstreamResponse.arrayBuffer();",
      "const params = await readUrlEncoded(event.req, bodyLimit(platform.config, 'form'));",
      "const body = await readBody(request, limit);",
      "const bytes = await source.bytes(file);",
    ];
    for (const line of allowed) expect(bodyReads(line), line).toEqual([]);
  });
});

/** A request whose body arrives in `chunks` chunks of `size` bytes, one every `everyMs`; counts what was pulled. */
function streamed(chunks: number, size: number, options: { everyMs?: number; declared?: number } = {}) {
  const state = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (state.pulled >= chunks) return controller.close();
      if (options.everyMs) await new Promise((resolve) => setTimeout(resolve, options.everyMs));
      state.pulled++;
      controller.enqueue(new Uint8Array(size).fill(97));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  const headers: Record<string, string> =
    options.declared === undefined ? {} : { "content-length": String(options.declared) };
  const request = new Request("http://localhost/x", {
    method: "POST",
    body,
    headers,
    duplex: "half",
  } as RequestInit);
  return { request, state };
}

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

const limit = (maxBytes: number, timeoutMs = 5_000): BodyLimit => ({ maxBytes, timeoutMs });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("readBody", () => {
  it("reads a body of exactly the limit; one byte more is 413 with the error body", async () => {
    const at = streamed(4, 16 * KiB);
    expect((await readBody(at.request, limit(64 * KiB))).byteLength).toBe(64 * KiB);
    const over = streamed(1, 64 * KiB + 1);
    const error = await refusal(readBody(over.request, limit(64 * KiB)));
    expect(error.status).toBe(413);
    expect(error.toBody()).toEqual({
      kind: "validation",
      message: "Request body: larger than the 65536-byte limit.",
      suggestion: "Send at most 65536 bytes in one request.",
    });
  });

  it("refuses a declared Content-Length over the limit before reading the body", async () => {
    const { request, state } = streamed(1, 10, { declared: 200 * 1024 * KiB });
    const error = await refusal(readBody(request, limit(64 * KiB)));
    expect(error.status).toBe(413);
    expect(state.pulled).toBeLessThanOrEqual(1);
  });

  it("stops a stream at the first chunk past the limit, drops the rest for a moment, then cancels it", async () => {
    // 50 MB in 64 KiB chunks, one every 5 ms: far more than the linger lets through.
    const { request, state } = streamed(800, 64 * KiB, { everyMs: 5 });
    const error = await refusal(readBody(request, limit(256 * KiB)));
    expect(error.status).toBe(413);
    expect(state.pulled).toBe(5);
    // Cancelled once the linger is over: waited for, since a loaded machine may run the timer late.
    await vi.waitFor(() => expect(state.cancelled).toBe(true), { timeout: LINGER_MS + 30_000, interval: 20 });
    const pulled = state.pulled;
    await sleep(100);
    // At most the one pull under way when the cancel came (a stream still read would pull ~20 more by now).
    expect(state.pulled).toBeLessThanOrEqual(pulled + 1);
    expect(pulled).toBeLessThan(800);
  });

  it("refuses a body that does not arrive in time with 408, and cancels it", async () => {
    const { request, state } = streamed(1_000, 10, { everyMs: 50 });
    const started = performance.now();
    const error = await refusal(readBodyText(request, limit(64 * KiB, 300)));
    expect(error.status).toBe(408);
    expect(error.toBody().message).toBe("Request body: not received within 0.3 seconds.");
    // Refused at its 0.3 s deadline, long before the whole body (1,000 chunks, one every 50 ms) could arrive; the
    // bound leaves a loaded machine room and still fails a reader that waits for the body.
    expect(performance.now() - started).toBeLessThan(10_000);
    await vi.waitFor(() => expect(state.cancelled).toBe(true), { timeout: LINGER_MS + 30_000, interval: 20 });
  });

  it("refuses with 408 a body whose first chunks are ready at once and whose rest never comes", async () => {
    const state = { cancelled: false };
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Two chunks at once (an in-memory start), then a pull that never enqueues.
        if (pulls++ < 2) controller.enqueue(new Uint8Array(10).fill(97));
        else return new Promise<void>(() => undefined);
      },
      cancel() {
        state.cancelled = true;
      },
    });
    const request = new Request("http://localhost/x", {
      method: "POST",
      body,
      duplex: "half",
    } as RequestInit);
    const error = await refusal(readBody(request, limit(64 * KiB, 300)));
    expect(error.status).toBe(408);
    await vi.waitFor(() => expect(state.cancelled).toBe(true), { timeout: LINGER_MS + 30_000, interval: 20 });
  });

  it("reads a body already in memory without starting the deadline timer", async () => {
    const timers = vi.spyOn(globalThis, "setTimeout");
    try {
      const text = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } });
      for (let i = 0; i < 3; i++) {
        const request = new Request("http://localhost/x", { method: "POST", body: text });
        expect(await readBodyText(request, limit(64 * KiB))).toBe(text);
      }
      const bytes = new Request("http://localhost/x", { method: "POST", body: new Uint8Array(100).fill(97) });
      expect((await readBody(bytes, limit(64 * KiB))).byteLength).toBe(100);
      expect(timers).not.toHaveBeenCalled();
    } finally {
      timers.mockRestore();
    }
  });

  it("reads no body as empty, and text as UTF-8", async () => {
    expect(await readBody(new Request("http://localhost/x", { method: "POST" }), limit(10))).toHaveLength(0);
    const request = new Request("http://localhost/x", { method: "POST", body: "☕ ok" });
    expect(await readBodyText(request, limit(64))).toBe("☕ ok");
  });
});

/**
 * A node:http server whose requests reach `handle` as srvx makes them (as `listen()` of src/server.ts does), and
 * a client that sends a body piece by piece.
 */
async function nodeServed(handle: (request: Request, message: IncomingMessage) => Promise<Response>) {
  const handler = toNodeHandler((request) =>
    handle(request, (request as unknown as { runtime: { node: { req: IncomingMessage } } }).runtime.node.req),
  ) as (req: IncomingMessage, res: ServerResponse) => void;
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const open = (headers: Record<string, string> = {}) => {
    const client = httpRequest({ port, host: "127.0.0.1", method: "POST", path: "/x", headers });
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      client.on("response", (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode!, text }));
      });
      client.on("error", reject);
    });
    answer.catch(() => undefined);
    return { client, answer };
  };
  return { open, close: () => new Promise((resolve) => server.close(resolve)).then(() => undefined) };
}

/** A promise and its resolver. */
function signal<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** The answer of a read: 200 with the text, or the refusal's status and message. */
async function answerOf(read: Promise<string>): Promise<Response> {
  try {
    return new Response(await read);
  } catch (error) {
    const failure = error instanceof ApiError ? error : new ApiError("internal", String(error));
    return new Response(failure.message, { status: failure.status });
  }
}

describe("readBody on node:http (from the IncomingMessage, no web stream)", () => {
  it("reads a body that arrives in pieces after the read began, as UTF-8", async () => {
    const started = signal();
    const read = signal<{ text: string; bodyUsed: boolean; error?: unknown }>();
    const served = await nodeServed(async (request) => {
      started.resolve();
      const text = await readBodyText(request, limit(64 * KiB)).catch((error: unknown) => String(error));
      // srvx marks its web stream used once read: untouched, the body was read from the IncomingMessage.
      read.resolve({ text, bodyUsed: request.bodyUsed });
      return new Response("ok");
    });
    try {
      const { client, answer } = served.open({ "transfer-encoding": "chunked" });
      client.write("☕ one,");
      await started.promise;
      client.write(Buffer.from(" two,").subarray(0, 3));
      client.write(Buffer.from(" two,").subarray(3));
      client.end(" three");
      expect(await read.promise).toEqual({ text: "☕ one, two, three", bodyUsed: false });
      expect((await answer).status).toBe(200);
    } finally {
      await served.close();
    }
  });

  it("takes a body that has arrived whole from the message's buffer, within the same limit", async () => {
    const body = "x".repeat(40 * KiB);
    const served = await nodeServed(async (request, message) => {
      await vi.waitFor(() => expect(message.complete).toBe(true), { timeout: 30_000, interval: 5 });
      const max = Number(request.headers.get("x-max"));
      // srvx marks its web stream used once read: still unused, the body was taken from the IncomingMessage.
      return answerOf(readBodyText(request, limit(max)).then((text) => `${text.length} ${request.bodyUsed}`));
    });
    try {
      const whole = served.open({ "content-length": String(body.length), "x-max": String(64 * KiB) });
      whole.client.end(body);
      expect(await whole.answer).toEqual({ status: 200, text: `${40 * KiB} false` });
      // Chunked (no declared length to refuse early) and one byte past the limit: refused all the same.
      const over = served.open({ "transfer-encoding": "chunked", "x-max": String(body.length - 1) });
      over.client.end(body);
      expect(await over.answer).toEqual({
        status: 413,
        text: `Request body: larger than the ${body.length - 1}-byte limit.`,
      });
    } finally {
      await served.close();
    }
  });

  it("takes a body whose declared bytes are buffered before node:http marks it complete: no timer, and it still ends", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "☕" } });
    const read = signal<{ text: string; timers: number }>();
    const served = await nodeServed(async (request, message) => {
      // Read a microtask later, as the MCP endpoint reads after authenticating: by then node:http has buffered the
      // body but not yet marked the message complete.
      await null;
      // A deadline would need a timer: none is armed for a body that is already here.
      const timers = vi.spyOn(globalThis, "setTimeout");
      try {
        const text = await readBodyText(request, limit(64 * KiB));
        read.resolve({ text, timers: timers.mock.calls.length });
      } finally {
        timers.mockRestore();
      }
      await vi.waitFor(() => expect(message.readableEnded).toBe(true), { timeout: 30_000, interval: 5 });
      return new Response("ok");
    });
    try {
      // Headers and body in one write, as agents' clients send a JSON-RPC call.
      const { client, answer } = served.open({ "content-length": String(Buffer.byteLength(body)) });
      client.end(body);
      expect(await read.promise).toEqual({ text: body, timers: 0 });
      expect((await answer).status).toBe(200);
    } finally {
      await served.close();
    }
  });

  it("refuses a streamed body at the first piece past the limit, and one that stalls at the deadline", async () => {
    const started = signal();
    const served = await nodeServed(async (request) => {
      started.resolve();
      const slow = request.headers.get("x-slow") === "1";
      return answerOf(readBodyText(request, slow ? limit(64 * KiB, 300) : limit(10 * KiB)));
    });
    try {
      const big = served.open({ "transfer-encoding": "chunked" });
      big.client.write("a".repeat(6 * KiB));
      await started.promise;
      big.client.write("a".repeat(6 * KiB));
      expect((await big.answer).status).toBe(413);
      big.client.destroy();
      const slow = served.open({ "transfer-encoding": "chunked", "x-slow": "1" });
      slow.client.write("a");
      const answered = await slow.answer;
      expect(answered).toEqual({ status: 408, text: "Request body: not received within 0.3 seconds." });
      // The sender never finishes: its connection is closed once the linger is over.
      await new Promise((resolve) => slow.client.socket!.once("close", resolve));
    } finally {
      await served.close();
    }
  });

  it("ends the read when the client goes away mid-body (no wait for the deadline)", async () => {
    const started = signal();
    const failed = signal<unknown>();
    const served = await nodeServed(async (request) => {
      started.resolve();
      failed.resolve(
        await readBody(request, limit(64 * KiB, 600_000)).then(
          () => "read",
          (e: unknown) => e,
        ),
      );
      return new Response("");
    });
    try {
      const { client } = served.open({ "transfer-encoding": "chunked" });
      client.on("error", () => undefined);
      client.write("partial");
      await started.promise;
      client.destroy();
      const error = await failed.promise;
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(ApiError);
    } finally {
      await served.close();
    }
  });

  it("reads through the web stream when something already took it", async () => {
    const served = await nodeServed(async (request) => {
      expect(request.body).not.toBeNull();
      return new Response(await readBodyText(request, limit(64 * KiB)));
    });
    try {
      const { client, answer } = served.open({ "content-length": "5" });
      client.end("hello");
      expect(await answer).toEqual({ status: 200, text: "hello" });
    } finally {
      await served.close();
    }
  });
});
