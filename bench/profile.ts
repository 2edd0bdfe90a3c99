// Profiling helper: node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/profile.ts <rest|mcp-legacy|mcp-modern|sdk-legacy|sdk-modern|bare> [n]
// then: node bench/summarize-profile.mjs /tmp/prof/<file>.cpuprofile
import { createBareApp, createSdkPatternApp } from "./baselines.ts";
import { captureToolsCall, MCP_ORIGIN, type McpCallTemplate, mcpBodyOk, mcpRequest } from "./mcp-requests.ts";
import { createFixture, PAGE } from "./setup.ts";

const what = process.argv[2] ?? "rest";
const n = Number(process.argv[3] ?? 3000);
const fx = await createFixture();
const setupKey = (await fx.keys.reserve(10))(0);
const [legacy, modern] = (await captureToolsCall(fx.app, setupKey)) as [McpCallTemplate, McpCallTemplate];
const payload = await (
  await fx.app.fetch(
    new Request(`${MCP_ORIGIN}/v1/websites?limit=${PAGE}`, {
      headers: { authorization: `Bearer ${setupKey}` },
    }),
  )
).json();
const app = what.startsWith("sdk")
  ? createSdkPatternApp(fx.platform)
  : what === "bare"
    ? createBareApp(payload)
    : fx.app;
const template = what.endsWith("modern") ? modern : legacy;
const keyFor = await fx.keys.reserve(n);
const cpu0 = process.cpuUsage();
const t0 = performance.now();
for (let i = 0; i < n; i++) {
  const response =
    what.startsWith("rest") || what === "bare"
      ? await app.fetch(
          new Request(`${MCP_ORIGIN}/v1/websites?limit=${PAGE}`, {
            headers: { authorization: `Bearer ${keyFor(i)}` },
          }),
        )
      : await app.fetch(new Request(`${MCP_ORIGIN}/v1/mcp`, mcpRequest(template, keyFor(i), i + 1)));
  const text = await response.text();
  if (response.status !== 200 || (what.includes("-") && !mcpBodyOk(text))) throw new Error(text);
}
const cpu = process.cpuUsage(cpu0);
console.log(
  `${what}: ${(((performance.now() - t0) / n) * 1000).toFixed(0)}µs/req wall, ${((cpu.user + cpu.system) / n).toFixed(0)}µs/req cpu`,
);
await fx.close();
