// Shared helpers of the store conformance suites: one body runs on every available dialect.
import { createHash, randomBytes } from "node:crypto";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { afterEach, beforeEach, describe } from "vitest";
import type { Database } from "../../src/db/database.ts";
import type { ApiKeyRecord } from "../../src/db/stores/api-keys.ts";
import type { AuditEntryRecord } from "../../src/db/stores/audit.ts";
import type { DeploymentRecord } from "../../src/db/stores/deployments.ts";
import type { OrganizationRecord, UserRecord } from "../../src/db/stores/organizations.ts";
import type { WebsiteRecord } from "../../src/db/stores/websites.ts";
import { type Dialect, dialects, openTestDatabase, type TestDatabase } from "../support/databases.ts";

export interface StoreContext {
  dialect: Dialect;
  /** The fresh database of the running test (only inside tests and hooks). */
  readonly db: Database;
  /** Its URL: a SQLite file path or a `postgres://` URL. */
  readonly url: string;
}

/** Runs `cases` once per available dialect (or those listed), each test on a fresh, migrated database. */
export function describeStores(
  name: string,
  cases: (ctx: StoreContext) => void,
  options: { dialects?: Dialect[] } = {},
): void {
  for (const d of dialects.filter((d) => !options.dialects || options.dialects.includes(d.name))) {
    describe.skipIf(!d.available)(`${name} [${d.name}]`, () => {
      let current: TestDatabase | undefined;
      const ctx: StoreContext = {
        dialect: d.name,
        get db() {
          if (!current) throw new Error("the database exists only inside tests and hooks");
          return current.db;
        },
        get url() {
          if (!current) throw new Error("the database exists only inside tests and hooks");
          return current.url;
        },
      };
      beforeEach(async () => {
        current = await openTestDatabase(d.name);
      });
      afterEach(async () => {
        await current?.dispose();
        current = undefined;
      });
      cases(ctx);
    });
  }
}

/**
 * A lowercase hex id of the length of ids. Keyset tests use these because their order is the same under any
 * collation (a PostgreSQL database with a linguistic collation orders mixed-case ids differently from SQLite).
 */
export function hexId(): string {
  return randomBytes(11).toString("hex").slice(0, 21);
}

/** A ready deployment of `websiteId` (source hash of "tree", one page), with `overrides`. */
export function deployment(websiteId: string, overrides: Partial<DeploymentRecord> = {}): DeploymentRecord {
  return {
    id: hexId(),
    websiteId,
    status: "ready",
    sourceHash: createHash("sha256").update("tree").digest("hex"),
    createdAt: 1_000,
    createdByType: "api_key",
    createdById: "key_1",
    pages: [{ route: "/", path: "index.html" }],
    error: null,
    ...overrides,
  };
}

/** Newest-first order of the keyset: createdAt desc, then id desc. */
export function newestFirst<T extends { id: string }>(rows: T[], createdAtOf: (row: T) => number): T[] {
  return [...rows].sort(
    (a, b) => createdAtOf(b) - createdAtOf(a) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
  );
}

export function organization(overrides: Partial<OrganizationRecord> = {}): OrganizationRecord {
  return { id: hexId(), name: "Acme", createdAt: 1_000, updatedAt: 1_000, ...overrides };
}

export function user(overrides: Partial<UserRecord> = {}): UserRecord {
  const id = overrides.id ?? hexId();
  return {
    id,
    email: `${id}@example.test`,
    name: "Ada",
    passwordHash: null,
    createdAt: 1_000,
    emailVerifiedAt: null,
    ...overrides,
  };
}

export function website(organizationId: string, overrides: Partial<WebsiteRecord> = {}): WebsiteRecord {
  const id = overrides.id ?? hexId();
  return {
    id,
    organizationId,
    name: "Site",
    slug: `site-${id}`,
    createdAt: 1_000,
    updatedAt: 1_000,
    ...overrides,
  };
}

export function apiKey(organizationId: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    id: hexId(),
    organizationId,
    name: "key",
    accessKind: "organization",
    role: "admin",
    websiteIds: [],
    createdAt: 1_000,
    updatedAt: 1_000,
    expiresAt: null,
    revokedAt: null,
    rotatedAt: null,
    createdByType: "user",
    createdById: "usr",
    ...overrides,
  };
}

export function auditEntry(
  organizationId: string,
  overrides: Partial<AuditEntryRecord> = {},
): AuditEntryRecord {
  return {
    id: hexId(),
    organizationId,
    at: 1_000,
    actorType: "api_key",
    actorId: "key_1",
    actorLabel: "CI key",
    operationId: "websites.create",
    transport: "rest",
    requestId: "req_1",
    websiteId: null,
    targetType: "website",
    targetId: null,
    outcome: "success",
    ...overrides,
  };
}

/** Inserts and returns a committed organization. */
export async function seedOrganization(
  db: Database,
  overrides: Partial<OrganizationRecord> = {},
): Promise<OrganizationRecord> {
  const org = organization(overrides);
  await db.transaction((s) => s.organizations.insert(org));
  return org;
}

/**
 * Inserts an organization and websites with the given ids: rows keyed by a website id need the website (every
 * website-scoped table has a foreign key to it).
 */
export async function seedWebsites(db: Database, ids: readonly string[]): Promise<OrganizationRecord> {
  const org = organization();
  await db.transaction(async (s) => {
    await s.organizations.insert(org);
    for (const id of ids) await s.websites.insert(website(org.id, { id }));
  });
  return org;
}

/** Runs raw SQL on a new connection of its own (for what must be proven below the stores). */
export async function rawQuery(
  dialect: Dialect,
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<Record<string, unknown>[]> {
  if (dialect === "sqlite") {
    const sqlite = new BetterSqlite3(url);
    try {
      const statement = sqlite.prepare(sql);
      if (statement.reader) return statement.all(...params) as Record<string, unknown>[];
      statement.run(...params);
      return [];
    } finally {
      sqlite.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}
