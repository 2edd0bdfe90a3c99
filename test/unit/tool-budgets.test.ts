import { describe, expect, it } from "vitest";
import { toolListCosts } from "../../scripts/tool-tokens.ts";
import { tools } from "../../tools/index.ts";

// What the tool list costs the agent that reads it, counted with the o200k tokenizer (`npm run tools:size` prints
// the same figures). A tool or a description that pushes a list past its budget fails here: make the text shorter,
// share a repeated schema part, or move the detail into the documentation (documentation_read).
describe("Tool-list budgets (o200k tokens)", () => {
  const costs = toolListCosts(tools);

  it("keeps the default toolsets' model-facing list within 12,000 tokens", () => {
    expect(costs.default.tools).toBeGreaterThan(50);
    expect(costs.default.modelFacing).toBeLessThanOrEqual(12_000);
  });

  it("keeps every operation together within 30,000 model-facing tokens", () => {
    expect(costs.all.tools).toBeGreaterThan(costs.default.tools);
    expect(costs.all.modelFacing).toBeLessThanOrEqual(30_000);
  });

  it("keeps discovery mode's whole list under 2,000 tokens", () => {
    expect(costs.discover.tools).toBe(3);
    expect(costs.discover.full).toBeLessThanOrEqual(2000);
  });

  it("counts every toolset, and the default set is a part of all of them", () => {
    const sum = Object.values(costs.toolsets).reduce((total, cost) => total + cost.tools, 0);
    expect(sum).toBe(costs.all.tools);
    expect(costs.default.modelFacing).toBeLessThan(costs.all.modelFacing);
    expect(costs.default.modelFacing).toBeGreaterThan(0);
  });
});
