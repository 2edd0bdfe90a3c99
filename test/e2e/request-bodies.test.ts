// Oversized and slow request bodies against a server in a process of its own (test/support/body-server.ts), whose
// peak resident memory is read over IPC after each request: every route that reads a body refuses 50 MB, declared or
// chunked, with 413 at once, closes the connection, and does not grow the process; a slow body gets 408.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { atOnceBound } from "../support/timing.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const MiB = 1024 * 1024;
/** The server's JSON limit (REST, /app-api, MCP); forms and OAuth keep the default 64 KiB. */
const JSON_LIMIT = MiB;
const FORM_LIMIT = 64 * 1024;
const TIMEOUT_MS = 1_500;
/**
 * How much a refused 50 MB body may raise the server's peak resident memory: far below the body (reading it would
 * grow by 50 MB), above what a route's first use costs in lazily loaded code and caches (5.6 MiB seen on MCP).
 */
const RSS_BUDGET = 16 * MiB;

interface Served {
  url: string;
  key: string;
  cookie: string;
  csrf: string;
  organizationId: string;
}

interface Sent {
  status: number;
  ms: number;
  body: any;
  /** Whether the server closed the connection within 1.5 s of answering (when asked to wait for it). */
  closed: boolean;
}

let child: ChildProcess;
let served: Served;
const dir = mkdtempSync(join(tmpdir(), "sitewright-bodies-"));

beforeAll(async () => {
  child = spawn(
    process.execPath,
    ["--import", "tsx", "test/support/body-server.ts", dir, String(JSON_LIMIT), String(TIMEOUT_MS)],
    { cwd: root, stdio: ["ignore", "pipe", "inherit", "ipc"] },
  );
  served = await new Promise<Served>((resolve, reject) => {
    let out = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      if (out.includes("\n")) resolve(JSON.parse(out.split("\n")[0]!));
    });
    child.once("exit", (code) => reject(new Error(`the server exited (${code})`)));
  });
});

afterAll(async () => {
  if (child?.connected) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.disconnect();
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

/** The most resident memory the server has had so far (its high-water mark, in bytes). */
function peakRss(): Promise<number> {
  return new Promise((resolve) => {
    child.once("message", (message) => resolve((message as { peakRss: number }).peakRss));
    child.send("rss");
  });
}

/**
 * POSTs `size` bytes of `a` to `path` in 64 KiB chunks, declared in Content-Length or chunked, and stops writing
 * once the answer has come; `pace` writes 10 bytes every `pace` ms instead (a slow sender). `awaitClose` waits up
 * to 1.5 s after the answer for the server to close the connection.
 */
function send(
  path: string,
  headers: Record<string, string>,
  size: number,
  options: { chunked?: boolean; pace?: number; awaitClose?: boolean } = {},
): Promise<Sent> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(`${served.url}${path}`, {
      method: "POST",
      // A keep-alive client on a fresh connection, as browsers and HTTP libraries send.
      agent: new http.Agent({ keepAlive: true }),
      headers: options.chunked ? headers : { ...headers, "content-length": String(size) },
    });
    let answered = false;
    let sent = 0;
    let closed = false;
    let onClose: () => void = () => undefined;
    req.on("socket", (socket) =>
      socket.once("close", () => {
        closed = true;
        onClose();
      }),
    );
    req.on("response", (res) => {
      answered = true;
      let text = "";
      res.setEncoding("utf8").on("data", (chunk: string) => {
        text += chunk;
      });
      res.on("end", () => {
        const ms = performance.now() - started;
        const finish = () => {
          clearTimeout(wait);
          resolve({ status: res.statusCode!, ms, body: text ? JSON.parse(text) : undefined, closed });
          req.destroy();
        };
        const wait = setTimeout(finish, options.awaitClose ? 1_500 : 0);
        if (closed) finish();
        else onClose = finish;
      });
    });
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    if (options.pace) {
      const timer = setInterval(() => {
        if (answered || req.destroyed || sent >= size) return clearInterval(timer);
        req.write(Buffer.alloc(10, 97));
        sent += 10;
      }, options.pace);
      return;
    }
    const chunk = Buffer.alloc(64 * 1024, 97);
    const write = () => {
      while (sent < size && !answered && !req.destroyed) {
        const piece = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += piece.length;
        if (!req.write(piece)) return void req.once("drain", write);
      }
      if (sent >= size && !answered) req.end();
    };
    write();
  });
}

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const JSON_TYPE = { "content-type": "application/json" };

/** Every route that reads a body, with what it needs to get that far, and its limit. */
const routes = (): { name: string; path: string; headers: Record<string, string>; limit: number }[] => {
  const session = { cookie: served.cookie, origin: served.url };
  return [
    { name: "OAuth token", path: "/oauth/token", headers: FORM, limit: FORM_LIMIT },
    { name: "OAuth revocation", path: "/oauth/revoke", headers: FORM, limit: FORM_LIMIT },
    { name: "OAuth client registration", path: "/oauth/register", headers: JSON_TYPE, limit: FORM_LIMIT },
    { name: "OAuth consent", path: "/oauth/authorize", headers: { ...FORM, ...session }, limit: FORM_LIMIT },
    { name: "sign-in form", path: "/signin", headers: FORM, limit: FORM_LIMIT },
    {
      name: "dashboard form",
      path: `/orgs/${served.organizationId}/websites`,
      headers: { ...FORM, ...session },
      limit: FORM_LIMIT,
    },
    {
      name: "REST operation",
      path: "/v1/websites",
      headers: { ...JSON_TYPE, authorization: `Bearer ${served.key}` },
      limit: JSON_LIMIT,
    },
    {
      name: "dashboard API",
      path: "/app-api/v1/websites",
      headers: { ...JSON_TYPE, ...session, "x-csrf-token": served.csrf },
      limit: JSON_LIMIT,
    },
    {
      name: "MCP endpoint",
      path: "/v1/mcp",
      headers: {
        ...JSON_TYPE,
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${served.key}`,
      },
      limit: JSON_LIMIT,
    },
  ];
};

const refused = (sent: Sent, limit: number) => {
  expect(sent.status).toBe(413);
  expect(sent.body).toEqual({
    kind: "validation",
    message: `Request body: larger than the ${limit}-byte limit.`,
    suggestion: `Send at most ${limit} bytes in one request.`,
  });
};

/** `work` and how much it raised the server's peak resident memory. */
async function measured<T>(work: () => Promise<T>): Promise<{ result: T; grown: number }> {
  const before = await peakRss();
  const result = await work();
  return { result, grown: (await peakRss()) - before };
}

describe("request bodies: one bounded reader on every route", () => {
  /** The slowest refusal of a small oversized body while warming up: what "quickly" costs on this machine now. */
  let baselineMs = 0;
  beforeAll(async () => {
    // Warm every route's code path with a small oversized body first.
    for (const route of routes()) {
      await send(route.path, route.headers, 2 * MiB);
      await send(route.path, route.headers, 2 * MiB, { chunked: true });
    }
    for (const route of routes()) {
      baselineMs = Math.max(baselineMs, (await send(route.path, route.headers, route.limit + 1)).ms);
    }
  });

  for (const chunked of [false, true]) {
    const how = chunked ? "chunked, without Content-Length" : "with Content-Length";
    it(`a 50 MB body ${how} gets 413 quickly on every route, and the server does not grow`, async () => {
      for (const route of routes()) {
        const { result: sent, grown } = await measured(() =>
          send(route.path, route.headers, 50 * MiB, { chunked, awaitClose: true }),
        );
        refused(sent, route.limit);
        expect(sent.ms, route.name).toBeLessThan(atOnceBound(baselineMs, 2_000));
        expect(sent.closed, `${route.name}: the server closes the connection, not reading the rest`).toBe(
          true,
        );
        expect(grown, `${route.name}: peak RSS grew ${(grown / MiB).toFixed(1)} MiB`).toBeLessThan(
          RSS_BUDGET,
        );
      }
    });
  }

  it("the reported input, 200 MB declared to /oauth/token, is refused before a byte is read", async () => {
    const { result: sent, grown } = await measured(() =>
      send("/oauth/token", FORM, 200 * MiB, { awaitClose: true }),
    );
    refused(sent, FORM_LIMIT);
    expect(sent.ms).toBeLessThan(atOnceBound(baselineMs, 1_000));
    expect(sent.closed).toBe(true);
    expect(grown).toBeLessThan(RSS_BUDGET);
  });

  it("a body of exactly the limit is read; one byte more is refused (and the connection stays usable)", async () => {
    const form = (size: number) => `client_id=${"x".repeat(size - "client_id=".length)}`;
    for (const chunked of [false, true]) {
      const at = await fetch(`${served.url}/oauth/token`, {
        method: "POST",
        headers: FORM,
        body: form(FORM_LIMIT),
      });
      expect(at.status).toBe(401);
      expect((await at.json()).error).toBe("invalid_client");
      const over = await send("/oauth/token", FORM, FORM_LIMIT + 1, { chunked, awaitClose: true });
      refused(over, FORM_LIMIT);
      expect(over.closed).toBe(false);
    }
  });

  it("a body that trickles in gets 408 at the read timeout, on form, OAuth and API routes", async () => {
    const slow = routes().filter((r) => ["OAuth token", "sign-in form", "REST operation"].includes(r.name));
    const sent = await Promise.all(
      slow.map((route) => send(route.path, route.headers, 1_000, { pace: 100, awaitClose: true })),
    );
    for (const one of sent) {
      expect(one.status).toBe(408);
      expect(one.body).toMatchObject({
        kind: "validation",
        message: "Request body: not received within 1.5 seconds.",
      });
      expect(one.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      // Trickled to the end, the body would take 10 s; a loaded machine may add seconds to the refusal.
      expect(one.ms).toBeLessThan(TIMEOUT_MS + 5_000);
      expect(one.closed).toBe(true);
    }
  });
});
