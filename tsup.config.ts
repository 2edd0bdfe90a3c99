import { cpSync } from "node:fs";
import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    cli: "src/cli.ts",
    index: "src/index.ts",
    "sandbox-worker": "src/framework/sandbox/worker.ts",
    "markdown-worker": "src/framework/markdown-worker.ts",
    "function-worker": "src/framework/functions/worker.ts",
    "context-pdf-worker": "src/services/context/pdf-worker.ts",
    "analytics-writer": "src/services/analytics/writer-worker.ts",
  },
  format: ["esm"],
  target: "node22",
  platform: "node",
  sourcemap: true,
  clean: true,
  dts: false,
  // The starter site is read from files at seed time: ship them beside the bundle (src/framework/starter).
  onSuccess: async () => {
    cpSync("src/framework/starter/site", "dist/starter-site", { recursive: true });
  },
});
