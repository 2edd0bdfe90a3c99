import { join } from "node:path";
import type { H3 } from "h3";
import { afterAll, beforeAll } from "vitest";
import { loadUserPrincipal } from "../../src/auth/users.ts";
import { fsBlobStore } from "../../src/blobs/index.ts";
import { newId } from "../../src/kernel/ids.ts";
import { callTool } from "../../src/kernel/pipeline.ts";
import type { Platform, PlatformConfig } from "../../src/kernel/platform.ts";
import type { Principal } from "../../src/kernel/principal.ts";
import { closePlatform, createPlatform, type PlatformOptions } from "../../src/platform.ts";
import { createApp, type Listening, listen } from "../../src/server.ts";
import type { BillingProvider } from "../../src/services/billing/provider.ts";
import {
  createOrganizationWithOwner,
  ensureLocalOwner,
  type LocalOwner,
  ownerOf,
} from "../../src/services/organizations/bootstrap.ts";
import { generateSecretsKey } from "../../src/services/secrets/crypto.ts";
import { type OperationId, type OperationInput, type OperationOutput, tools } from "../../tools/index.ts";
import { type Dialect, openTestDatabase } from "./databases.ts";

export interface CreatedKey {
  id: string;
  plaintextKey: string;
  organizationId: string;
  access: unknown;
}

export interface TestPlatform {
  platform: Platform;
  app: H3;
  local: LocalOwner;
  /** The database's URL (a SQLite file path, or a PostgreSQL URL). */
  databaseUrl: string;
  /** The folder of the platform's filesystem blob store. */
  blobRoot: string;
  /** An organization-wide admin key of the local organization. */
  adminKey: CreatedKey;
  /** Runs an operation in-process as `principal` (the owner by default): how tests reach owner-only tools. */
  call<Id extends OperationId>(
    operationId: Id,
    input: OperationInput<Id>,
    principal?: Principal,
  ): Promise<OperationOutput<Id>>;
  /** Like `call`, for what the types forbid: invalid input on purpose, or an operation id chosen at run time. */
  callUnchecked(operationId: string, input: unknown, principal?: Principal): Promise<any>;
  createKey(
    access: OperationInput<"apiKeys.create">["access"],
    options?: { name?: string; organizationId?: string; expiresAt?: string },
  ): Promise<CreatedKey>;
  createWebsite(
    name: string,
    organizationId?: string,
  ): Promise<{ id: string; name: string; slug: string; organizationId: string }>;
  /** A second organization with its own owner, for cross-organization tests. */
  createOrganization(name: string): Promise<LocalOwner>;
  /**
   * A new user (no password, email verified unless `verified` is false), optionally a member of an organization
   * with `role`.
   */
  createUser(
    email: string,
    membership?: { organizationId: string; role: string },
    options?: { verified?: boolean },
  ): Promise<{ id: string; email: string; name: string }>;
  /** Runs an operation in-process as a signed-in user, with their principal as the database says now. */
  callAsUser<Id extends OperationId>(
    userId: string,
    operationId: Id,
    input: OperationInput<Id>,
  ): Promise<OperationOutput<Id>>;
  /** Closes the platform (waiting up to `mailWaitMs` for a mail delivery under way), then its database. */
  close(mailWaitMs?: number): Promise<void>;
}

export interface TestPlatformOptions {
  config?: Partial<PlatformConfig>;
  now?: () => number;
  billing?: BillingProvider;
  analytics?: PlatformOptions["analytics"];
  /** Write analytics on the collector's worker thread, with its own connection (as `serve` and `dev` do). */
  analyticsThread?: boolean;
}

/** A platform on a fresh database of `dialect`, with the local owner and an admin key. */
export async function createTestPlatform(
  dialect: Dialect,
  options: TestPlatformOptions = {},
): Promise<TestPlatform> {
  const database = await openTestDatabase(dialect, options.now ? { now: options.now } : {});
  const platform = await createPlatform({
    tools,
    db: database.db,
    blobs: fsBlobStore(join(database.dir, "blobs")),
    // a fresh secrets key per platform, as `dev` makes one per data folder; the cheapest password hashing
    config: { secretsKey: generateSecretsKey(), passwordCost: 10, ...options.config },
    ...(options.billing ? { billing: options.billing } : {}),
    analytics: {
      ...(options.analyticsThread ? { databaseUrl: database.url } : {}),
      ...options.analytics,
    },
    log: { info: () => undefined, error: (message, ...details) => console.error(message, ...details) },
  });
  const local = await ensureLocalOwner(database.db);
  const callUnchecked: TestPlatform["callUnchecked"] = (operationId, input, principal = local.principal) =>
    callTool(platform, platform.registry.byOperationId(operationId)!, input, {
      principal,
      transport: "internal",
      requestId: "req_test",
    });
  const call = callUnchecked as TestPlatform["call"];
  const createKey: TestPlatform["createKey"] = (access, opts = {}) =>
    call("apiKeys.create", {
      organizationId: opts.organizationId ?? local.organization.id,
      name: opts.name ?? "test key",
      access,
      ...(opts.expiresAt ? { expiresAt: opts.expiresAt } : {}),
    });
  const adminKey = await createKey({ kind: "organization", role: "admin" }, { name: "admin" });
  return {
    platform,
    app: createApp(platform),
    local,
    databaseUrl: database.url,
    blobRoot: join(database.dir, "blobs"),
    adminKey,
    call,
    callUnchecked,
    createKey,
    createWebsite: (name, organizationId) =>
      call("websites.create", { name, organizationId: organizationId ?? local.organization.id }),
    createOrganization: (name) =>
      database.db.transaction(async (stores) => {
        const email = `${name.toLowerCase().replace(/\W+/g, "-")}-${Date.now()}@example.test`;
        const { organization } = await createOrganizationWithOwner(
          stores,
          name,
          { email, name: `${name} owner`, emailVerifiedAt: Date.now() },
          Date.now(),
        );
        return { ...(await ownerOf(stores, organization)), created: true };
      }),
    createUser: (email, membership, opts = {}) =>
      database.db.transaction(async (stores) => {
        const user = {
          id: newId(),
          email,
          name: email.split("@")[0]!,
          passwordHash: null,
          createdAt: Date.now(),
          emailVerifiedAt: opts.verified === false ? null : Date.now(),
        };
        await stores.organizations.insertUser(user);
        if (membership)
          await stores.organizations.insertMembership({
            ...membership,
            userId: user.id,
            createdAt: Date.now(),
          });
        return user;
      }),
    callAsUser: async (userId, operationId, input) =>
      call(operationId, input, (await database.db.read((stores) => loadUserPrincipal(stores, userId)))!),
    close: async (mailWaitMs) => {
      await closePlatform(platform, mailWaitMs);
      await database.dispose();
    },
  };
}

/**
 * Registers, in the enclosing `describe` (or file), `createTestPlatform(dialect, options)` before all its tests and
 * its close after them (`options` may be a function, called then: of what an earlier `beforeAll` started).
 * Returns the platform as a stand-in whose fields can be read inside tests and hooks, not at collection time.
 */
export function useTestPlatform(
  dialect: Dialect,
  options: TestPlatformOptions | (() => TestPlatformOptions | Promise<TestPlatformOptions>) = {},
): TestPlatform {
  let created: TestPlatform | undefined;
  beforeAll(async () => {
    created = await createTestPlatform(dialect, typeof options === "function" ? await options() : options);
  });
  afterAll(() => created?.close());
  return standIn(() => created);
}

/** A stand-in for the test platform `current()` gives once a `beforeAll` made it: each field read is forwarded. */
function standIn(current: () => TestPlatform | undefined): TestPlatform {
  return new Proxy({} as TestPlatform, {
    get(_, field) {
      const platform = current();
      if (!platform) throw new Error("the test platform exists only inside tests and hooks");
      return platform[field as keyof TestPlatform];
    },
  });
}

/** A test platform served over HTTP on a loopback port. */
export interface ListeningPlatform {
  t: TestPlatform;
  server: Listening;
  /** The server's base URL, `http://127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** Closes the server, then the platform. */
  close(): Promise<void>;
}

/**
 * `createTestPlatform(dialect, options)` served by `listen` on `port` (0: a free one). `options` is a function of
 * the bound port when the configuration names it (app and API URLs).
 */
export async function listenTestPlatform(
  dialect: Dialect,
  options: TestPlatformOptions | ((port: number) => TestPlatformOptions) = {},
  port = 0,
): Promise<ListeningPlatform> {
  let t: TestPlatform | undefined;
  const server = await listen(async (bound) => {
    t = await createTestPlatform(dialect, typeof options === "function" ? options(bound) : options);
    return t.app;
  }, port);
  const platform = t!;
  return {
    t: platform,
    server,
    url: server.url,
    port: server.port,
    close: async () => {
      await server.close();
      await platform.close();
    },
  };
}

/**
 * Registers, in the enclosing `describe` (or file), `listenTestPlatform(dialect, options)` before all its tests
 * and its close after them (`options` may be a function: of the port, or of what an earlier `beforeAll` started).
 * The object's fields can be read inside tests and hooks, not at collection time, except `t`: a stand-in for the
 * platform (as `useTestPlatform` returns) that can be taken at once and read later.
 */
export function useListeningPlatform(
  dialect: Dialect,
  options: TestPlatformOptions | ((port: number) => TestPlatformOptions) = {},
): Omit<ListeningPlatform, "close"> {
  let served: ListeningPlatform | undefined;
  beforeAll(async () => {
    served = await listenTestPlatform(dialect, options);
  });
  afterAll(() => served?.close());
  const current = () => {
    if (!served) throw new Error("the listening platform exists only inside tests and hooks");
    return served;
  };
  return {
    t: standIn(() => served?.t),
    get server() {
      return current().server;
    },
    get url() {
      return current().url;
    },
    get port() {
      return current().port;
    },
  };
}
