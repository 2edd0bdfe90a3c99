// A minimal SMTP server for tests (RFC 5321 subset): the platform's real nodemailer transport delivers to it.
import { createServer, type Socket } from "node:net";
import { afterAll, beforeAll } from "vitest";
import type { PlatformConfig } from "../../src/kernel/platform.ts";

export interface SunkMessage {
  from: string;
  to: string[];
  /** The DATA section as received (dot-unstuffed), headers and body. */
  raw: string;
  /** Header values by lower-case name (the last one wins). */
  headers: Record<string, string>;
  /** The body, decoded when it was sent quoted-printable or base64. */
  text: string;
}

export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>` for PlatformConfig.smtpUrl. */
  url: string;
  messages: SunkMessage[];
  /** Resolves with the first message (now or later) matching `match`; rejects after `timeoutMs`. */
  waitFor(match: (message: SunkMessage) => boolean, timeoutMs?: number): Promise<SunkMessage>;
  /**
   * Holds the reply accepting each message (it is in `messages` already) until the returned function is called:
   * a delivery then stays in flight for as long as a test needs.
   */
  hold(): () => void;
  close(): Promise<void>;
}

function decodeBody(headers: Record<string, string>, body: string): string {
  const encoding = (headers["content-transfer-encoding"] ?? "").toLowerCase();
  if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (encoding !== "quoted-printable") return body;
  const bytes = body
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

function parse(from: string, to: string[], raw: string): SunkMessage {
  const split = raw.indexOf("\r\n\r\n");
  const head = split === -1 ? raw : raw.slice(0, split);
  const body = split === -1 ? "" : raw.slice(split + 4);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, " ").split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { from, to, raw, headers, text: decodeBody(headers, body) };
}

/** Starts the sink on 127.0.0.1 at a free port. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: SunkMessage[] = [];
  const waiters = new Set<() => void>();
  const sockets = new Set<Socket>();
  let held: Promise<void> | null = null;
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    const reply = (line: string) => socket.write(`${line}\r\n`);
    let buffer = "";
    let from = "";
    let to: string[] = [];
    let data: string[] | undefined;
    const command = (line: string) => {
      if (data) {
        if (line === ".") {
          messages.push(parse(from, to, data.join("\r\n")));
          for (const wake of waiters) wake();
          data = undefined;
          from = "";
          to = [];
          if (held) void held.then(() => reply("250 2.0.0 Queued"));
          else reply("250 2.0.0 Queued");
        } else data.push(line.startsWith("..") ? line.slice(1) : line);
        return;
      }
      const verb = line.slice(0, 4).toUpperCase();
      const arg = /<([^>]*)>/.exec(line)?.[1] ?? "";
      if (verb === "EHLO") socket.write("250-sink.test\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n");
      else if (verb === "HELO") reply("250 sink.test");
      else if (verb === "MAIL") {
        from = arg;
        to = [];
        reply("250 2.1.0 OK");
      } else if (verb === "RCPT") {
        if (!from) reply("503 5.5.1 MAIL first");
        else {
          to.push(arg);
          reply("250 2.1.5 OK");
        }
      } else if (verb === "DATA") {
        if (to.length === 0) reply("503 5.5.1 RCPT first");
        else {
          data = [];
          reply("354 End data with <CR><LF>.<CR><LF>");
        }
      } else if (verb === "RSET") {
        from = "";
        to = [];
        reply("250 2.0.0 OK");
      } else if (verb === "NOOP") reply("250 2.0.0 OK");
      else if (verb === "QUIT") {
        reply("221 2.0.0 Bye");
        socket.end();
      } else reply("502 5.5.2 Command not implemented");
    };
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      for (let end = buffer.indexOf("\r\n"); end !== -1; end = buffer.indexOf("\r\n")) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        command(line);
      }
    });
    reply("220 sink.test ESMTP test sink");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor(match, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(match);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error("no matching mail arrived at the SMTP sink"));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    hold() {
      let release = (): void => undefined;
      held = new Promise((resolve) => {
        release = () => {
          held = null;
          resolve();
        };
      });
      return release;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Registers, in the enclosing scope, a sink started before all its tests and closed after them. The sink it returns
 * can be used from the tests on; its `config` (filled in at start) points a platform's mail at it.
 */
export function useSmtpSink(): SmtpSink & { config: Partial<PlatformConfig> } {
  let started: SmtpSink | undefined;
  const config: Partial<PlatformConfig> = {};
  beforeAll(async () => {
    started = await startSmtpSink();
    config.smtpUrl = started.url;
  });
  afterAll(() => started?.close());
  const live = () => {
    if (!started) throw new Error("the SMTP sink starts before the tests");
    return started;
  };
  return {
    config,
    get url() {
      return live().url;
    },
    get messages() {
      return live().messages;
    },
    waitFor: (match, timeoutMs) => live().waitFor(match, timeoutMs),
    hold: () => live().hold(),
    close: () => live().close(),
  };
}
