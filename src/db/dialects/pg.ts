import { sql } from "drizzle-orm";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import type { BucketSpec, Database, OpenOptions, RateLimiter } from "../handle.ts";
import { migrationsFolder } from "../migrations-folder.ts";
import { tables } from "../schema/pg.ts";
import { bindStores } from "../stores/index.ts";
import { pgDb, pgTables } from "../types.ts";
import { WriteTracker } from "../write-generation.ts";
import { isConnectionLoss, neverSent, retryOnConnectionLoss } from "./pg-retry.ts";

const MIGRATION_LOCK = 7_291_004;
const POOL_SIZE = 10;

/** PostgreSQL through node-postgres: many stateless nodes share everything through it. */
export async function openPostgres(options: OpenOptions): Promise<Database> {
  const pool = new pg.Pool({ connectionString: options.url, max: POOL_SIZE });
  pool.on("error", () => undefined); // an idle client was lost (server restart, terminate): the pool drops it and reconnects on demand
  // A client checked out between two queries (inside a transaction) that loses its session would emit an error
  // no one listens to, and take the process down; its next query fails instead (and is retried when safe).
  pool.on("connect", (client) => client.on("error", () => undefined));
  // Statements outside transactions share one tracker: its tables count again when each read ends, until none runs.
  const pooledWrites = new WriteTracker();
  let reading = 0;
  const db = drizzle(pool, { logger: pooledWrites.logger });
  /** `use` on a new connection outside the pool, closed after: the second attempt after a lost session. */
  const fresh = async <T>(use: (connection: pg.Client) => Promise<T>): Promise<T> => {
    const connection = new pg.Client({ connectionString: options.url });
    connection.on("error", () => undefined);
    await connection.connect();
    try {
      return await use(connection);
    } finally {
      await connection.end().catch(() => undefined);
    }
  };
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await migrate(drizzle(client), { migrationsFolder: migrationsFolder("pg") });
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
  const t = pgTables(tables);
  const stores = bindStores(pgDb(db), t, "pg");
  return {
    dialect: "pg",
    rateLimiter: postgresRateLimiter(db, (take) => fresh((connection) => take(drizzle(connection)))),
    transaction(work) {
      let committing = false;
      // BEGIN and COMMIT by hand, so a failure is known to be COMMIT's own (drizzle reports ROLLBACK's instead).
      const once = async (connection: pg.PoolClient | pg.Client) => {
        committing = false;
        const writes = new WriteTracker();
        await connection.query("BEGIN");
        try {
          const result = await work(
            bindStores(pgDb(drizzle(connection, { logger: writes.logger })), t, "pg"),
          );
          committing = true;
          await connection.query("COMMIT");
          return result;
        } catch (error) {
          await connection.query("ROLLBACK").catch(() => undefined);
          throw error;
        } finally {
          writes.end();
        }
      };
      return retryOnConnectionLoss(
        async () => {
          // Its own pool client, released with the error when the session was lost so the pool discards it.
          const connection = await pool.connect();
          let lost: Error | undefined;
          try {
            return await once(connection);
          } catch (error) {
            if (isConnectionLoss(error)) lost = error as Error;
            throw error;
          } finally {
            connection.release(lost);
          }
        },
        () => fresh(once),
        (error) => !committing || neverSent(error),
      );
    },
    async read(work) {
      reading++;
      try {
        return await retryOnConnectionLoss(
          () => work(stores),
          () =>
            fresh((connection) =>
              work(bindStores(pgDb(drizzle(connection, { logger: pooledWrites.logger })), t, "pg")),
            ),
        );
      } finally {
        pooledWrites.end(--reading === 0);
      }
    },
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: POOL_SIZE,
    }),
    close: () => pool.end(),
  };
}

/**
 * One atomic upsert per take, refilled by the database clock, so every node shares one exact bucket. `again`
 * runs a take on a new connection (after a lost one).
 */
function postgresRateLimiter(
  pooled: NodePgDatabase,
  again: <T>(take: (db: NodePgDatabase) => Promise<T>) => Promise<T>,
): RateLimiter {
  async function take(db: NodePgDatabase, key: string, spec: BucketSpec, cost: number) {
    const { capacity, refillPerSecond: rate } = spec;
    const needed = Math.max(cost, 1);
    const refilled = sql`LEAST(${capacity}::float8, b.tokens + EXTRACT(EPOCH FROM (clock_timestamp() - b.updated_at)) * ${rate}::float8)`;
    const taken = await db.execute(sql`
      INSERT INTO rate_limit_buckets AS b (key, tokens, updated_at)
      VALUES (${key}, ${capacity - cost}::float8, clock_timestamp())
      ON CONFLICT (key) DO UPDATE SET tokens = ${refilled} - ${cost}::float8, updated_at = clock_timestamp()
      WHERE ${refilled} >= ${needed}::float8
      RETURNING tokens`);
    if (taken.rows.length) return { allowed: true, retryAfterSeconds: 0 };
    const short = await db.execute(sql`
      SELECT (${needed}::float8 - ${refilled}) / ${rate}::float8 AS wait FROM rate_limit_buckets b WHERE key = ${key}`);
    const wait = Number((short.rows[0] as { wait?: number } | undefined)?.wait ?? 1);
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(wait)) };
  }
  return {
    // A take retried after a lost connection may charge twice but never lets more through: the bucket stays
    // exact in the direction it promises (nothing above the limit). A give is never retried (it could).
    take: (key, spec, cost) =>
      retryOnConnectionLoss(
        () => take(pooled, key, spec, cost),
        () => again((db) => take(db, key, spec, cost)),
      ),
    async give(key, spec, tokens) {
      const refilled = sql`b.tokens + EXTRACT(EPOCH FROM (clock_timestamp() - b.updated_at)) * ${spec.refillPerSecond}::float8`;
      await pooled.execute(sql`
        UPDATE rate_limit_buckets AS b
        SET tokens = LEAST(${spec.capacity}::float8, ${refilled} + ${tokens}::float8), updated_at = clock_timestamp()
        WHERE key = ${key}`);
    },
  };
}
