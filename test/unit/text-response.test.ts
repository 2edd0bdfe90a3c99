import { describe, expect, it } from "vitest";
import { TextResponse } from "../../src/mcp/text-response.ts";

const text = '{"result":{"text":"h\\u00e9 \\"quoted\\" ✓"},"id":1}';
const init = { status: 200, headers: { "content-type": "application/json" } };

type Step = (response: Response) => Promise<unknown>;
const read: Record<string, Step> = {
  text: (r) => r.text(),
  json: (r) => r.json(),
  arrayBuffer: async (r) => new TextDecoder().decode(await r.arrayBuffer()),
  body: async (r) => new Response(r.body).text(),
  clone: async (r) => [await r.clone().text(), await r.text()],
  bodyUsed: async (r) => r.bodyUsed,
};

/** What a sequence of reads gives (value or error class), and `bodyUsed` after it. */
async function outcome(response: Response, steps: string[]) {
  const results: unknown[] = [];
  for (const step of steps) {
    results.push(await read[step]!(response).catch((error: Error) => error.constructor.name));
  }
  return {
    results,
    bodyUsed: response.bodyUsed,
    status: response.status,
    type: response.headers.get("content-type"),
  };
}

/** A TextResponse reads as a native Response built from the same text does, whatever is read in which order. */
describe("TextResponse", () => {
  const sequences = [
    ["text"],
    ["json"],
    ["text", "text"],
    ["text", "json"],
    ["json", "arrayBuffer"],
    ["bodyUsed", "text", "bodyUsed", "body"],
    ["body", "text"],
    ["arrayBuffer", "text"],
    ["clone", "text"],
    ["text", "clone"],
  ];
  for (const steps of sequences) {
    it(`reads as a Response does: ${steps.join(", ")}`, async () => {
      const ours = await outcome(new TextResponse(text, init), steps);
      expect(ours).toEqual(await outcome(new Response(text, init), steps));
    });
  }

  it("hands over the very text it was built from", async () => {
    const long = `"${"x".repeat(100_000)}"`;
    expect(await new TextResponse(long, init).text()).toBe(long);
    expect(await new TextResponse(long, init).json()).toBe(long.slice(1, -1));
  });

  it("rejects a body that is not JSON from json() as a Response does", async () => {
    const ours = await new TextResponse("{", init).json().catch((error: Error) => error.constructor.name);
    expect(ours).toBe(await new Response("{", init).json().catch((error: Error) => error.constructor.name));
  });
});
