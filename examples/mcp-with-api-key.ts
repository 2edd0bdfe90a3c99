// An agent's first session with Sitewright over MCP, on the official MCP client and an API key.
//
//   SITEWRIGHT_API_KEY=<key> node --import tsx examples/mcp-with-api-key.ts
//
// SITEWRIGHT_URL defaults to http://localhost:8787/v1/mcp (what `sitewright dev` prints).
// It lists the tools, creates a website, lists websites, provokes two validation errors on purpose and
// prints their bodies, deletes the website and shows that its id no longer resolves. Any other failure
// exits with status 1.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const url = process.env.SITEWRIGHT_URL ?? "http://localhost:8787/v1/mcp";
const apiKey = process.env.SITEWRIGHT_API_KEY;
if (!apiKey) {
  console.error("Set SITEWRIGHT_API_KEY to an API key (`sitewright dev` prints one on first start).");
  process.exit(2);
}

/** The error body of every failed tool call: the same JSON as a failed REST request. */
interface ErrorBody {
  kind: string;
  message: string;
  suggestion?: string;
  validValues?: unknown[];
  retryAfterSeconds?: number;
}

interface Website {
  id: string;
  name: string;
  slug: string;
  url: string;
}

const client = new Client({ name: "sitewright-example", version: "1.0.0" });
const transport = new StreamableHTTPClientTransport(new URL(url), {
  // The default toolsets cover building and editing sites; this session also manages API keys, so it adds the
  // organization toolset (the same as `?toolsets=default,organization` on the URL).
  requestInit: { headers: { Authorization: `Bearer ${apiKey}`, "X-MCP-Toolsets": "default,organization" } },
});

/** Calls a tool and returns its structured output; a failed call throws with the error body. */
async function call<T>(name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new ToolError(name, errorBodyOf(result.content));
  return result.structuredContent as T;
}

/** Calls a tool that is expected to fail and returns the error body it failed with. */
async function callExpectingError(name: string, args: Record<string, unknown>): Promise<ErrorBody> {
  const result = await client.callTool({ name, arguments: args });
  if (!result.isError) throw new Error(`${name} was expected to fail but succeeded.`);
  return errorBodyOf(result.content);
}

function errorBodyOf(content: unknown): ErrorBody {
  const first = (content as { type: string; text?: string }[])[0];
  if (first?.type !== "text" || !first.text) throw new Error("Tool error without a text content block.");
  return JSON.parse(first.text) as ErrorBody;
}

class ToolError extends Error {
  constructor(
    readonly tool: string,
    readonly body: ErrorBody,
  ) {
    super(`${tool} failed: ${JSON.stringify(body)}`);
  }
}

function expectKind(step: string, body: ErrorBody, kind: string): void {
  if (body.kind !== kind) throw new Error(`${step}: expected kind '${kind}', got ${JSON.stringify(body)}`);
}

async function main(): Promise<void> {
  console.log(`Connecting to ${url}`);
  await client.connect(transport);

  const { tools } = await client.listTools();
  console.log(`Tools (${tools.length}): ${tools.map((tool) => tool.name).join(", ")}`);

  const { items: organizations } = await call<{ items: { id: string; name: string; role: string }[] }>(
    "organizations_list",
  );
  const organization = organizations[0];
  if (!organization) throw new Error("This key reaches no organization.");
  console.log(`Organization: ${organization.name} (${organization.id}), role ${organization.role}`);

  const name = `Example site ${Date.now().toString(36)}`;
  const website = await call<Website>("websites_create", { name, organizationId: organization.id });
  console.log(
    `Created website: ${website.id} name="${website.name}" slug=${website.slug} url=${website.url}`,
  );

  let deleted = false;
  try {
    const list = await call<{ items: Website[]; nextCursor: string | null }>("websites_list", { limit: 100 });
    console.log(
      `Websites (${list.items.length}): ${list.items.map((w) => `${w.slug} (${w.id})`).join(", ")}`,
    );
    if (!list.items.some((w) => w.id === website.id)) throw new Error("The new website is not listed.");

    // Validation errors on purpose: the body names the field; closed sets carry validValues.
    const badLimit = await callExpectingError("websites_list", { limit: 0 });
    expectKind("websites_list limit 0", badLimit, "validation");
    console.log(`Validation error (websites_list, limit 0): ${JSON.stringify(badLimit)}`);

    const badRole = await callExpectingError("api_keys_create", {
      organizationId: organization.id,
      name: "never created",
      access: { kind: "organization", role: "owner" },
    });
    expectKind("api_keys_create role owner", badRole, "validation");
    console.log(`Validation error (api_keys_create, role owner): ${JSON.stringify(badRole)}`);

    const removed = await call<{ id: string; deleted: boolean }>("websites_delete", {
      websiteId: website.id,
    });
    deleted = removed.deleted;
    console.log(`Deleted website: ${JSON.stringify(removed)}`);

    // A deleted website is not_found; over MCP the suggestion names MCP tools (websites_list).
    const gone = await callExpectingError("websites_get", { websiteId: website.id });
    expectKind("websites_get after delete", gone, "not_found");
    console.log(`After delete (websites_get): ${JSON.stringify(gone)}`);
  } finally {
    if (!deleted) {
      await call("websites_delete", { websiteId: website.id }).catch((error: unknown) => {
        console.error(`Cleanup failed: ${(error as Error).message}`);
      });
    }
  }
  console.log("Done.");
}

main()
  .then(() => client.close())
  .catch(async (error: unknown) => {
    console.error(`Unexpected failure: ${error instanceof Error ? error.message : String(error)}`);
    await client.close().catch(() => undefined);
    process.exit(1);
  });
