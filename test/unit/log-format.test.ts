import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/observability/log.ts";

function capture() {
  const lines: string[] = [];
  return { destination: { write: (line: string) => void lines.push(line) }, lines };
}

const line = {
  requestId: "req_abc",
  method: "GET",
  host: "localhost:8787",
  path: "/v1/websites",
  status: 200,
  durationMs: 4.2,
  operation: "websites.list",
  principal: { type: "api_key", id: "key1" },
};

describe("the logger", () => {
  it("writes a request as one JSON object with the documented fields", () => {
    const out = capture();
    createLogger({ format: "json", destination: out.destination }).request!(line);
    expect(out.lines).toHaveLength(1);
    const entry = JSON.parse(out.lines[0]!);
    expect(entry).toStrictEqual({
      level: "info",
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      msg: "request",
      requestId: "req_abc",
      method: "GET",
      host: "localhost:8787",
      path: "/v1/websites",
      status: 200,
      durationMs: 4.2,
      operation: "websites.list",
      principalType: "api_key",
      principalId: "key1",
    });
  });

  it("logs a failure's type, code, message and stack, never a failed query's parameters", () => {
    const out = capture();
    const error = Object.assign(
      new Error("Failed query: select * from api_keys where hash = $1\nparams: s3cret"),
      {
        code: "57P01",
        query: "select",
        params: ["s3cret"],
      },
    );
    createLogger({ format: "json", destination: out.destination }).request!({
      ...line,
      status: 500,
      cause: error,
    });
    const entry = JSON.parse(out.lines[0]!);
    expect(entry.level).toBe("error");
    expect(entry.msg).toBe("request failed");
    expect(entry.err).toMatchObject({
      type: "Error",
      code: "57P01",
      message: "Failed query: select * from api_keys where hash = $1",
    });
    expect(out.lines[0]).not.toContain("s3cret");
  });

  it("writes short human lines in the pretty format (dev)", () => {
    const out = capture();
    const logger = createLogger({ format: "pretty", destination: out.destination });
    logger.request!(line);
    logger.error("housekeeping failed", new Error("disk full"));
    expect(out.lines[0]).toMatch(
      /^\d\d:\d\d:\d\d GET localhost:8787\/v1\/websites 200 4\.2ms websites\.list api_key:key1 req_abc\n$/,
    );
    expect(out.lines[1]).toMatch(/^\d\d:\d\d:\d\d ERROR housekeeping failed\n {2}Error: disk full\n {4}at /);
  });
});
