// `npm run tools:size`: the token cost (o200k) of the MCP tool list per mode and per toolset; with `--per-tool`,
// also each tool alone, largest first.
import { tools } from "../tools/index.ts";
import { perToolCosts, toolListCosts } from "./tool-tokens.ts";

const costs = toolListCosts(tools);
const rows: [string, { tools: number; modelFacing: number; full: number }][] = [
  ["default toolsets", costs.default],
  ["all toolsets", costs.all],
  ["discovery mode", costs.discover],
  ...Object.entries(costs.toolsets).map(([set, cost]) => [`toolset ${set}`, cost] as [string, typeof cost]),
];
console.log(
  `${"list".padEnd(22)} ${"tools".padStart(5)} ${"model-facing".padStart(13)} ${"full".padStart(8)}`,
);
for (const [name, cost] of rows) {
  console.log(
    `${name.padEnd(22)} ${String(cost.tools).padStart(5)} ${String(cost.modelFacing).padStart(13)} ${String(cost.full).padStart(8)}`,
  );
}
if (process.argv.includes("--per-tool")) {
  console.log(
    `\n${"tool".padEnd(40)} ${"toolset".padEnd(12)} ${"model-facing".padStart(13)} ${"full".padStart(8)}`,
  );
  for (const cost of perToolCosts(tools)) {
    console.log(
      `${cost.name.padEnd(40)} ${cost.toolset.padEnd(12)} ${String(cost.modelFacing).padStart(13)} ${String(cost.full).padStart(8)}`,
    );
  }
}
