import { parseArgs } from "node:util";
import { callerFor, tools } from "../../tools/index.ts";
import { keyRoles, type websiteKeyRoles } from "../kernel/roles.ts";
import { createPlatform } from "../platform.ts";
import { ensureLocalOwner } from "../services/organizations/bootstrap.ts";
import { blobsFromEnv } from "./operations-config.ts";
import { DEFAULT_DATA_DIR, openExistingDatabase, UsageError } from "./support.ts";

/** `sitewright keys create`: an API key in the local organization of an existing database. */
export async function keys(args: string[]) {
  const [sub, ...rest] = args;
  if (sub !== "create") throw new UsageError(`Unknown keys command '${sub ?? ""}'.`);
  const { values } = parseArgs({
    args: rest,
    options: {
      role: { type: "string" },
      website: { type: "string", multiple: true },
      name: { type: "string" },
      "expires-at": { type: "string" },
      "data-dir": { type: "string", default: DEFAULT_DATA_DIR },
      json: { type: "boolean", default: false },
    },
  });
  if (!values.role || !(keyRoles as readonly string[]).includes(values.role)) {
    throw new UsageError(`--role must be one of ${keyRoles.join(", ")}.`);
  }
  const sameCommand = [
    ...["keys", "create", "--role", values.role],
    ...(values.website ?? []).flatMap((id) => ["--website", id]),
    ...(values.name === undefined ? [] : ["--name", values.name]),
    ...(values["expires-at"] === undefined ? [] : ["--expires-at", values["expires-at"]]),
    ...(values.json ? ["--json"] : []),
  ];
  const db = await openExistingDatabase(values["data-dir"], sameCommand);
  try {
    const platform = await createPlatform({
      tools,
      db,
      dataDir: values["data-dir"],
      ...blobsFromEnv(process.env, "keys", values["data-dir"]),
    });
    const local = await ensureLocalOwner(db);
    const key = await createKey(platform, local.principal, local.organization.id, {
      role: values.role as KeyRole,
      name: values.name ?? `${values.role} key`,
      websiteIds: values.website,
      expiresAt: values["expires-at"],
    });
    console.log(
      values.json ? JSON.stringify(key) : `Created API key ${key.id} (${values.role}).\n${key.plaintextKey}`,
    );
  } finally {
    await db.close();
  }
}

type KeyRole = (typeof keyRoles)[number];
type WebsiteKeyRole = (typeof websiteKeyRoles)[number];

/** Creates an API key through `apiKeys.create`, as the local owner (organization-wide, or for some websites). */
export async function createKey(
  platform: Awaited<ReturnType<typeof createPlatform>>,
  principal: Awaited<ReturnType<typeof ensureLocalOwner>>["principal"],
  organizationId: string,
  options: { role: KeyRole; name: string; websiteIds?: string[]; expiresAt?: string },
) {
  // a website key's narrower set of roles is the operation's input schema to check
  const access = options.websiteIds?.length
    ? { kind: "websites" as const, websiteIds: options.websiteIds, role: options.role as WebsiteKeyRole }
    : { kind: "organization" as const, role: options.role };
  const call = callerFor(platform, { principal, transport: "internal", requestId: "cli" });
  return call("apiKeys.create", {
    organizationId,
    name: options.name,
    access,
    ...(options.expiresAt ? { expiresAt: options.expiresAt } : {}),
  });
}
