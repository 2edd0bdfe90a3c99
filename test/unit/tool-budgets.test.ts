import { describe, expect, it } from "vitest";
import { toolListCosts } from "../../scripts/tool-tokens.ts";
import { tools } from "../../tools/index.ts";

describe("Tool-list budgets (o200k tokens)", () => {
  const costs = toolListCosts(tools);

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
