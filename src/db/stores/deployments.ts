import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { KeysetPosition } from "../../kernel/cursor.ts";
import type { Db, Tables } from "../types.ts";
import { after, newestFirst } from "./keyset.ts";
import { once } from "./prepared.ts";

export type DeploymentRecord = Tables["deployments"]["$inferSelect"];

/** One source file a deployment was built from; its text is in the content table under `sha256`. */
export type DeploymentFileRecord = Omit<Tables["deploymentFiles"]["$inferSelect"], "deploymentId">;

/** One file a deployment serves: a URL path (`about/index.html`) and the blob holding its bytes. */
export type DeploymentOutputRecord = Omit<Tables["deploymentOutputs"]["$inferSelect"], "deploymentId">;

/** One server function of a deployment: its name, draft file and the blob of its bundle (`{js, map}` JSON). */
export type DeploymentFunctionRecord = Omit<Tables["deploymentFunctions"]["$inferSelect"], "deploymentId">;

/** Deployments (immutable builds), their source files, and the pointer to the one each website serves. */
export interface DeploymentStore {
  /** Inserts a deployment with its source files (their contents must exist). */
  insert(deployment: DeploymentRecord, files: readonly DeploymentFileRecord[]): Promise<void>;
  get(id: string): Promise<DeploymentRecord | undefined>;
  /** Newest first; callers that page ask for `limit + 1`. */
  list(websiteId: string, options: { after?: KeysetPosition; limit: number }): Promise<DeploymentRecord[]>;
  /** Only status and error change after insert (a build finishing or failing). */
  updateStatus(id: string, status: string, error: unknown): Promise<void>;
  /** Source files in byte order of path. */
  files(deploymentId: string): Promise<DeploymentFileRecord[]>;
  /** Records what a deployment serves (its bytes must already be in the blob store). */
  insertOutputs(deploymentId: string, outputs: readonly DeploymentOutputRecord[]): Promise<void>;
  /** One served file of a deployment: the hot lookup of hosting. */
  output(deploymentId: string, path: string): Promise<DeploymentOutputRecord | undefined>;
  /** Every served file of a deployment, in byte order of path. */
  outputs(deploymentId: string): Promise<DeploymentOutputRecord[]>;
  /** Records the server functions a deployment was built with (their bundles must already be in the blob store). */
  insertFunctions(deploymentId: string, functions: readonly DeploymentFunctionRecord[]): Promise<void>;
  /** One server function of a deployment: the lookup of a live call. */
  function(deploymentId: string, name: string): Promise<DeploymentFunctionRecord | undefined>;
  /** The deployment the website serves, or null when nothing is published. */
  publishedId(websiteId: string): Promise<string | null>;
  /** Points the website at `deploymentId` (publish and rollback); null unpublishes. */
  setPublished(websiteId: string, deploymentId: string | null, now: number): Promise<void>;
  /** The newest deployment of the website built from `sourceHash` with status `status` (equal drafts build once). */
  findBySourceHash(
    websiteId: string,
    sourceHash: string,
    status: string,
  ): Promise<DeploymentRecord | undefined>;
  /**
   * Locks the website's publish pointer row until the transaction ends, creating it (pointing nowhere) when
   * absent: publishes, rollbacks and deployment inserts of one website take it first, so they serialize. A no-op
   * update takes PostgreSQL's row lock (concurrent lockers wait, then read the committed state); SQLite serializes
   * transactions anyway.
   */
  lockPublishState(websiteId: string, now: number): Promise<void>;
}

export function deploymentStore(db: Db, t: Tables): DeploymentStore {
  const d = t.deployments;
  const files = t.deploymentFiles;
  const state = t.websitePublishState;
  const published = once(() =>
    db
      .select({ id: state.publishedDeploymentId })
      .from(state)
      .where(eq(state.websiteId, sql.placeholder("websiteId")))
      .prepare(),
  );

  const out = t.deploymentOutputs;
  const outputColumns = { path: out.path, sha256: out.sha256, contentType: out.contentType, size: out.size };
  const outputAt = once(() =>
    db
      .select(outputColumns)
      .from(out)
      .where(
        and(eq(out.deploymentId, sql.placeholder("deploymentId")), eq(out.path, sql.placeholder("path"))),
      )
      .prepare(),
  );

  const fn = t.deploymentFunctions;
  return {
    async insertFunctions(deploymentId, functions) {
      for (let i = 0; i < functions.length; i += 200) {
        await db
          .insert(fn)
          .values(functions.slice(i, i + 200).map((record) => ({ deploymentId, ...record })));
      }
    },
    async function(deploymentId, name) {
      const [row] = await db
        .select({ name: fn.name, file: fn.file, bundleSha256: fn.bundleSha256, size: fn.size })
        .from(fn)
        .where(and(eq(fn.deploymentId, deploymentId), eq(fn.name, name)));
      return row;
    },
    async insertOutputs(deploymentId, outputs) {
      for (let i = 0; i < outputs.length; i += 200) {
        await db.insert(out).values(outputs.slice(i, i + 200).map((output) => ({ deploymentId, ...output })));
      }
    },
    async output(deploymentId, path) {
      return (await outputAt().execute({ deploymentId, path }))[0];
    },
    async outputs(deploymentId) {
      return db
        .select(outputColumns)
        .from(out)
        .where(eq(out.deploymentId, deploymentId))
        .orderBy(asc(out.path));
    },
    async insert(deployment, list) {
      await db.insert(d).values(deployment);
      // Chunks keep each statement well under the dialects' bound-parameter limits.
      for (let i = 0; i < list.length; i += 200) {
        await db
          .insert(files)
          .values(list.slice(i, i + 200).map((file) => ({ deploymentId: deployment.id, ...file })));
      }
    },
    async get(id) {
      const [row] = await db.select().from(d).where(eq(d.id, id)).limit(1);
      return row;
    },
    async list(websiteId, options) {
      return db
        .select()
        .from(d)
        .where(and(eq(d.websiteId, websiteId), after(d.createdAt, d.id, options.after)))
        .orderBy(...newestFirst(d.createdAt, d.id))
        .limit(options.limit);
    },
    async updateStatus(id, status, error) {
      await db.update(d).set({ status, error }).where(eq(d.id, id));
    },
    async files(deploymentId) {
      return db
        .select({ path: files.path, sha256: files.sha256, size: files.size })
        .from(files)
        .where(eq(files.deploymentId, deploymentId))
        .orderBy(asc(files.path));
    },
    async publishedId(websiteId) {
      return (await published().execute({ websiteId }))[0]?.id ?? null;
    },
    async findBySourceHash(websiteId, sourceHash, status) {
      const [row] = await db
        .select()
        .from(d)
        .where(and(eq(d.websiteId, websiteId), eq(d.sourceHash, sourceHash), eq(d.status, status)))
        .orderBy(desc(d.createdAt), desc(d.id))
        .limit(1);
      return row;
    },
    async lockPublishState(websiteId, now) {
      await db
        .insert(state)
        .values({ websiteId, publishedDeploymentId: null, updatedAt: now })
        .onConflictDoNothing();
      await db.update(state).set({ websiteId }).where(eq(state.websiteId, websiteId));
    },
    async setPublished(websiteId, deploymentId, now) {
      await db
        .insert(state)
        .values({ websiteId, publishedDeploymentId: deploymentId, updatedAt: now })
        .onConflictDoUpdate({
          target: state.websiteId,
          set: { publishedDeploymentId: deploymentId, updatedAt: now },
        });
    },
  };
}
