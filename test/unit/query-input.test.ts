import { describe, expect, it } from "vitest";
import { queryInput } from "../../src/rest/http.ts";

const schema = {
  type: "object",
  properties: {
    limit: { type: "integer" },
    draft: { type: "boolean" },
    tags: { type: "array", items: { type: "string" } },
    sizes: { anyOf: [{ type: "array", items: { type: "number" } }, { type: "null" }] },
  },
};

describe("queryInput", () => {
  it("coerces by the schema, keeps the last value of a scalar and the names' first order", () => {
    const input = queryInput(
      new URLSearchParams("draft=true&limit=5&other=a&limit=7&tags=a,b&tags=c&sizes=1,2.5&draft=maybe"),
      schema,
    );
    expect(input).toEqual({ draft: "maybe", limit: 7, other: "a", tags: ["a", "b", "c"], sizes: [1, 2.5] });
    expect(Object.keys(input)).toEqual(["draft", "limit", "other", "tags", "sizes"]);
    expect(queryInput(new URLSearchParams("limit=5x&draft=false"), schema)).toEqual({
      limit: "5x",
      draft: false,
    });
  });

  it("takes any parameter name, __proto__ and numbers included, as data", () => {
    const input = queryInput(new URLSearchParams("__proto__=x&2=b&constructor=c&limit=1"), schema);
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
    expect(input).toMatchObject({ 2: "b", constructor: "c", limit: 1 });
  });
});
