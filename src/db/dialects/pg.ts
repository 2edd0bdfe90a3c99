import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import type { BucketSpec, Database, OpenOptions, RateLimiter } from "../database.ts";
import { migrationsFolder } from "../migrations-folder.ts";
import { tables } from "../schema/pg.ts";
import { bindStores } from "../stores/index.ts";
import { pgDb, pgTables } from "../types.ts";
import { retryOnConnectionLoss } from "./pg-retry.ts";

const MIGRATION_LOCK = 7_291_004;
const POOL_SIZE = 10;

/** PostgreSQL through node-postgres: many stateless nodes share everything through it. */
export async function openPostgres(options: OpenOptions): Promise<Database> {
  const pool = new pg.Pool({ connectionString: options.url, max: POOL_SIZE });
  pool.on("error", () => undefined); // an idle client was lost (server restart, terminate): the pool drops it and reconnects on demand
  const db = drizzle(pool);
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
    rateLimiter: postgresRateLimiter(db),
    transaction(work) {
      let committing = false;
      return retryOnConnectionLoss(
        () => {
          committing = false;
          return db.transaction(async (tx) => {
            const result = await work(bindStores(pgDb(tx), t, "pg"));
            committing = true;
            return result;
          });
        },
        () => !committing,
      );
    },
    read: (work) => retryOnConnectionLoss(() => work(stores)),
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: POOL_SIZE,
    }),
    close: () => pool.end(),
  };
}

/** One atomic upsert per take, refilled by the database clock, so every node shares one exact bucket. */
function postgresRateLimiter(db: ReturnType<typeof drizzle>): RateLimiter {
  async function take(key: string, spec: BucketSpec, cost: number) {
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
    take: (key, spec, cost) => retryOnConnectionLoss(() => take(key, spec, cost)),
    async give(key, spec, tokens) {
      const refilled = sql`b.tokens + EXTRACT(EPOCH FROM (clock_timestamp() - b.updated_at)) * ${spec.refillPerSecond}::float8`;
      await db.execute(sql`
        UPDATE rate_limit_buckets AS b
        SET tokens = LEAST(${spec.capacity}::float8, ${refilled} + ${tokens}::float8), updated_at = clock_timestamp()
        WHERE key = ${key}`);
    },
  };
}
