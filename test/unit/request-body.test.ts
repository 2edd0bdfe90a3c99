import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
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

  it("reads no body as empty, and text as UTF-8", async () => {
    expect(await readBody(new Request("http://localhost/x", { method: "POST" }), limit(10))).toHaveLength(0);
    const request = new Request("http://localhost/x", { method: "POST", body: "☕ ok" });
    expect(await readBodyText(request, limit(64))).toBe("☕ ok");
  });
});
