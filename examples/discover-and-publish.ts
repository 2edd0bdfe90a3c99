// An agent in discovery mode: it sees only three meta-tools, finds the tools it needs by intent, reads their
// definitions and calls them through `tools_call`: create a website, then publish it.
//
//   SITEWRIGHT_API_KEY=<key> node --import tsx examples/discover-and-publish.ts
//
// SITEWRIGHT_URL defaults to http://localhost:8787/v1/mcp (what `sitewright dev` prints); the example adds
// `?tools=discover` to it (see docs/toolsets.md). Every step prints one line; any failure exits with status 1.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const base = process.env.SITEWRIGHT_URL ?? "http://localhost:8787/v1/mcp";
const apiKey = process.env.SITEWRIGHT_API_KEY;
if (!apiKey) {
  console.error("Set SITEWRIGHT_API_KEY to an API key (`sitewright dev` prints one on first start).");
  process.exit(2);
}

const url = new URL(base);
url.searchParams.set("tools", "discover");
const client = new Client({ name: "sitewright-discover-and-publish", version: "1.0.0" });
const transport = new StreamableHTTPClientTransport(url, {
  requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
});

/** Calls a meta-tool and returns the JSON of its result; a failed call throws with the error body. */
async function meta<T>(name: string, args: Record<string, unknown>): Promise<T> {
  const result = await client.callTool({ name, arguments: args });
  const first = (result.content as { type: string; text?: string }[])[0];
  const body = result.structuredContent ?? (first?.text ? JSON.parse(first.text) : undefined);
  if (result.isError) throw new Error(`${name} failed: ${first?.text ?? "no error body"}`);
  return body as T;
}

/** Finds the best tool for an intent whose name is accepted by `pick`. */
async function find(intent: string, pick: (name: string) => boolean): Promise<string> {
  const { items } = await meta<{ items: { name: string; title: string }[] }>("tools_search", {
    query: intent,
  });
  console.log(`Search "${intent}": ${items.map((item) => item.name).join(", ")}`);
  const tool = items.find((item) => pick(item.name));
  if (!tool) throw new Error(`No tool found for "${intent}".`);
  return tool.name;
}

/** Reads a tool's definition and prints its required inputs. */
async function describe(name: string): Promise<void> {
  const described = await meta<{ name: string; inputSchema: { required?: string[] } }>("tools_describe", {
    name,
  });
  console.log(
    `Described ${described.name}: requires ${(described.inputSchema.required ?? []).join(", ") || "nothing"}`,
  );
}

try {
  await client.connect(transport);
  const { tools } = await client.listTools();
  console.log(`Tools (${tools.length}): ${tools.map((tool) => tool.name).join(", ")}`);

  const create = await find(
    "create a website",
    (name) => name.endsWith("_create") && name.startsWith("websites"),
  );
  await describe(create);
  const website = await meta<{ id: string; name: string; url: string }>("tools_call", {
    name: create,
    arguments: { name: `Discovered site ${Date.now()}` },
  });
  console.log(`Created website: ${website.id} name="${website.name}"`);

  const publish = await find("publish a website", (name) => name.endsWith("_publish"));
  await describe(publish);
  const published = await meta<{ deployment: { id: string }; url: string }>("tools_call", {
    name: publish,
    arguments: { websiteId: website.id },
  });
  console.log(`Published deployment ${published.deployment.id}: live at ${published.url}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await client.close();
}
