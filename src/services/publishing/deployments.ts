import type {
  DeploymentFunctionRecord,
  DeploymentOutputRecord,
  DeploymentRecord,
} from "../../db/stores/deployments.ts";
import type { DeploymentFormRecord } from "../../db/stores/forms.ts";
import type { Stores } from "../../db/stores/index.ts";
import {
  type BuildResult,
  buildSite,
  type CmsSnapshot,
  computeSourceHash,
  contentTypeOf,
  type Diagnostic,
  snapshotCms,
} from "../../framework/index.ts";
import type { PrepareContext } from "../../kernel/context.ts";
import { ApiError } from "../../kernel/errors.ts";
import { isIdShaped, newId } from "../../kernel/ids.ts";
import type { Platform } from "../../kernel/platform.ts";
import type { Principal } from "../../kernel/principal.ts";
import { iso } from "../../kernel/schemas.ts";
import { cmsSnapshotOf, readCmsContent, snapshotProvider } from "../cms/provider.ts";
import { readDraft, sameFiles } from "./draft.ts";

/**
 * Publishing: a build of the draft becomes an immutable deployment (its pages and assets as content-addressed
 * blobs, its source files as the draft's rows), and publishing swaps the website's one pointer to it.
 *
 * The slow part (reading the draft, building, putting blobs) runs in a tool's `prepare`, with no unit of work
 * open; the commit (insert the deployment and its outputs, swap the pointer) is one short transaction, so a crash
 * at any moment leaves the old or the new deployment published, whole. Blobs written by a build that never
 * commits are unreferenced and harmless. Every commit of one website first locks its publish pointer row, so
 * publishes, rollbacks and deployment inserts of a website serialize.
 */

/** Every deployment this service writes is built and servable when inserted (builds run within the call). */
export const READY = "ready";

/** The one mode publishing builds in (previews come with hosting). */
const MODE = "publish";

export interface PageRef {
  route: string;
  path: string;
}

/** A successful build, with its outputs and function bundles already in the blob store. */
export interface StoredBuild {
  result: BuildResult;
  outputs: DeploymentOutputRecord[];
  functions: DeploymentFunctionRecord[];
}

/** What the slow part hands to the commit. */
export interface PreparedDeployment {
  websiteId: string;
  sourceHash: string;
  /** The draft's files as read (path, sha256, size): the deployment's source files. */
  files: { path: string; sha256: string; size: number }[];
  /** The published deployment when the draft was read (read before it, see `prepareDeployment`). */
  publishedIdAtRead: string | null;
  /** A ready deployment of the same source that existed before building (then nothing was built). */
  existingId?: string;
  build?: StoredBuild;
}

const encoder = new TextEncoder();

/**
 * Builds `files` (in the build sandbox's queue of `organizationId`) and stores the result (see `storeBuild`). A
 * build failure is the framework's `validation` error (details: `{file, line, column, message}` per source error)
 * with a suggestion naming the operations that fix it.
 */
export async function buildAndStore(
  platform: Platform,
  organizationId: string,
  files: ReadonlyMap<string, string>,
  cms: CmsSnapshot = {},
): Promise<StoredBuild> {
  return storeBuild(platform, await build(platform, organizationId, files, cms));
}

/**
 * Puts every page, asset and server function bundle (`{js, map}` JSON, see `functionBundleBlob`) of a build into
 * the blob store, returning the output and function records a deployment lists.
 */
export async function storeBuild(platform: Platform, result: BuildResult): Promise<StoredBuild> {
  const { blobs } = platform;
  const items = [
    ...result.pages.map((page) => ({
      path: page.path,
      contentType: contentTypeOf(page.path),
      body: encoder.encode(page.html),
    })),
    ...result.assets.map((asset) => ({ path: asset.path, contentType: asset.contentType, body: asset.body })),
  ];
  const outputs: DeploymentOutputRecord[] = [];
  // A few puts at a time: each one fsyncs its file.
  for (let i = 0; i < items.length; i += 16) {
    const batch = items.slice(i, i + 16);
    const names = await Promise.all(batch.map((item) => blobs.put(item.body)));
    for (const [j, item] of batch.entries()) {
      outputs.push({
        path: item.path,
        sha256: names[j]!,
        contentType: item.contentType,
        size: item.body.length,
      });
    }
  }
  const functions: DeploymentFunctionRecord[] = [];
  for (const fn of result.functions) {
    const body = encoder.encode(JSON.stringify({ js: fn.js, map: fn.map }));
    functions.push({ name: fn.name, file: fn.file, bundleSha256: await blobs.put(body), size: body.length });
  }
  return { result, outputs, functions };
}

/** One run of the framework's build; its `validation` error gets a suggestion naming the operations that fix it. */
async function build(
  platform: Platform,
  organizationId: string,
  files: ReadonlyMap<string, string>,
  cms: CmsSnapshot,
): Promise<BuildResult> {
  platform.metrics.publishBuild();
  try {
    return await buildSite({
      files,
      organizationId,
      mode: MODE,
      cms: snapshotProvider(cms),
      limits: platform.config.buildLimits,
    });
  } catch (error) {
    if (!(error instanceof ApiError) || error.kind !== "validation") throw error;
    throw new ApiError("validation", error.message, {
      ...error.options,
      suggestion:
        "Nothing was published; the live site is unchanged. Fix each file named in details (line and column are 1-based) with {{websiteSourceCode.files.write}} (it needs the edit lease from {{websiteSourceCode.lease.acquire}}), then call {{websiteSourceCode.head.check}} again.",
    });
  }
}

/** The check of the draft: build it (nothing is stored or published) and say what it would serve. */
export async function checkDraft(ctx: PrepareContext, websiteId: string) {
  const { organizationId, draft, content } = await ctx.read(async (stores) => ({
    organizationId: await organizationOf(stores, websiteId),
    draft: await readDraft(stores, websiteId),
    content: await readCmsContent(stores, websiteId, MODE),
  }));
  const result = await build(ctx.platform, organizationId, draft.files, await cmsSnapshotOf(content));
  return {
    sourceHash: result.sourceHash,
    pages: result.pages.map((page) => ({ route: page.route, path: page.path, source: page.source })),
    assets: result.assets.map((asset) => ({
      path: asset.path,
      size: asset.body.length,
      contentType: asset.contentType,
    })),
    forms: result.forms.map((form) => ({ name: form.name, fields: form.fields, page: form.page })),
    warnings: result.warnings.map(projectDiagnostic),
  };
}

export const projectDiagnostic = (d: Diagnostic) => ({
  file: d.file,
  line: d.line,
  column: d.column,
  message: d.message,
});

/**
 * The slow part of publish and ensure, outside any unit of work: read the pointer, then the draft (in that
 * order: a publish that commits in between is then seen as a moved pointer by the commit), hash the draft, and
 * build it unless a ready deployment of the same source exists.
 */
export async function prepareDeployment(ctx: PrepareContext, websiteId: string): Promise<PreparedDeployment> {
  const { organizationId, publishedIdAtRead, draft, content } = await ctx.read(async (stores) => ({
    organizationId: await organizationOf(stores, websiteId),
    publishedIdAtRead: await stores.deployments.publishedId(websiteId),
    draft: await readDraft(stores, websiteId),
    // The published CMS content, read with the draft: the deployment renders (and its hash covers) exactly this.
    content: await readCmsContent(stores, websiteId, MODE),
  }));
  const cms = await cmsSnapshotOf(content);
  // Hashed as buildSite hashes it: the framework's snapshot of the same content.
  let snapshot: CmsSnapshot;
  try {
    snapshot = await snapshotCms(snapshotProvider(cms), MODE);
  } catch (error) {
    throw new ApiError("validation", error instanceof Error ? error.message : String(error));
  }
  const sourceHash = computeSourceHash(draft.files, snapshot, MODE);
  const files = draft.rows.map((row) => ({ path: row.path, sha256: row.sha256, size: row.size }));
  const prepared: PreparedDeployment = { websiteId, sourceHash, files, publishedIdAtRead };
  const existing = await ctx.read((stores) =>
    stores.deployments.findBySourceHash(websiteId, sourceHash, READY),
  );
  if (existing) return { ...prepared, existingId: existing.id };
  return { ...prepared, build: await buildAndStore(ctx.platform, organizationId, draft.files, cms) };
}

/** The organization of a website, whose queue of the build sandbox its builds wait in. */
async function organizationOf(stores: Stores, websiteId: string): Promise<string> {
  const website = await stores.websites.get(websiteId);
  if (!website) throw new ApiError("not_found", `Website '${websiteId}' was not found.`);
  return website.organizationId;
}

export interface Committed {
  deployment: DeploymentRecord;
  /** True when no new deployment was inserted (one of the same source existed). */
  reused: boolean;
  /** The deployment published before this call (null when none was). */
  previousDeploymentId: string | null;
  /** The published deployment after this call. */
  publishedId: string | null;
  /** Warnings of the build this call ran; empty when it reused a deployment. */
  warnings: Diagnostic[];
}

/**
 * The commit, in the caller's transaction: lock the website's pointer, reuse a ready deployment of the same
 * source (perhaps inserted by a concurrent call while this one built) or insert the built one with its source
 * files and outputs, and, when publishing, swap the pointer to it.
 *
 * Ordering of concurrent publishes: if the pointer moved since the draft was read (another publish or a rollback
 * committed while this one built) and the draft changed since, publishing this older draft would silently replace
 * newer work, so the call fails with `conflict` and writes nothing. Same draft ⇒ it proceeds (both succeed, in
 * the order they commit).
 */
export async function commitDeployment(
  stores: Stores,
  prepared: PreparedDeployment,
  principal: Principal,
  now: number,
  options: { publish: boolean },
): Promise<Committed> {
  const { websiteId, sourceHash } = prepared;
  await stores.deployments.lockPublishState(websiteId, now);
  const previousDeploymentId = await stores.deployments.publishedId(websiteId);
  if (options.publish && previousDeploymentId !== prepared.publishedIdAtRead) {
    const current = await stores.sourceFiles.list(websiteId, {});
    if (!sameFiles(current, prepared.files)) {
      throw new ApiError(
        "conflict",
        `Website '${websiteId}' was published by another call while this publish was building, and its draft has changed since this publish read it; publishing the older draft would replace newer work, so nothing was published.`,
        {
          suggestion:
            "Call {{websiteSourceCode.head.publish}} again to publish the current draft (review it first with {{websiteSourceCode.changes.list}}).",
        },
      );
    }
  }
  let deployment =
    (prepared.existingId ? await stores.deployments.get(prepared.existingId) : undefined) ??
    (await stores.deployments.findBySourceHash(websiteId, sourceHash, READY));
  const reused = Boolean(deployment);
  if (!deployment) {
    const build = prepared.build;
    if (!build) throw new Error(`deployment ${prepared.existingId} of website ${websiteId} vanished`);
    deployment = {
      id: newId(),
      websiteId,
      status: READY,
      sourceHash,
      createdAt: now,
      createdByType: principal.type,
      createdById: principal.id,
      pages: build.result.pages.map((page): PageRef => ({ route: page.route, path: page.path })),
      error: null,
    };
    await stores.deployments.insert(deployment, prepared.files);
    await stores.deployments.insertOutputs(deployment.id, build.outputs);
    await stores.deployments.insertFunctions(deployment.id, build.functions);
    await stores.forms.insertDeploymentForms(deployment.id, formsOfBuild(build.result));
  }
  let publishedId = previousDeploymentId;
  if (options.publish) {
    if (previousDeploymentId !== deployment.id)
      await stores.deployments.setPublished(websiteId, deployment.id, now);
    publishedId = deployment.id;
  }
  return {
    deployment,
    reused,
    previousDeploymentId,
    publishedId,
    warnings: reused ? [] : (prepared.build?.result.warnings ?? []),
  };
}

/**
 * The forms a deployment records, one per name: the page it is first found on, and every field any of its
 * pages has (a form of the same name on several pages is one form).
 */
export function formsOfBuild(result: BuildResult): DeploymentFormRecord[] {
  const byName = new Map<string, DeploymentFormRecord>();
  for (const form of result.forms) {
    const known = byName.get(form.name);
    if (!known) {
      byName.set(form.name, {
        name: form.name,
        page: form.page,
        fields: form.inputs.map((input) => ({ ...input })),
      });
      continue;
    }
    for (const input of form.inputs)
      if (!known.fields.some((field) => field.name === input.name)) known.fields.push({ ...input });
  }
  return [...byName.values()];
}

/** A deployment of `websiteId`; `not_found` for an unknown id or one of another website (existence never leaks). */
export async function deploymentOf(
  stores: Stores,
  websiteId: string,
  deploymentId: string,
  field = "deploymentId",
): Promise<DeploymentRecord> {
  const deployment = isIdShaped(deploymentId) ? await stores.deployments.get(deploymentId) : undefined;
  if (!deployment || deployment.websiteId !== websiteId) {
    throw new ApiError(
      "not_found",
      `${field}: deployment '${deploymentId}' was not found on website '${websiteId}'.`,
      { suggestion: "Call {{websiteSourceCode.deployments.list}} to see this website's deployments." },
    );
  }
  return deployment;
}

/**
 * Points the live site at an earlier deployment of the same website, at once (no build): one pointer swap in the
 * caller's transaction, after the website's pointer lock.
 */
export async function rollbackTo(
  stores: Stores,
  websiteId: string,
  deploymentId: string,
  now: number,
): Promise<{ deployment: DeploymentRecord; previousDeploymentId: string | null }> {
  const deployment = await deploymentOf(stores, websiteId, deploymentId);
  if (deployment.status !== READY) {
    throw new ApiError(
      "conflict",
      `deploymentId: deployment '${deploymentId}' is ${deployment.status}, not ready; only ready deployments can be published.`,
      { suggestion: "Call {{websiteSourceCode.deployments.list}} and pick a ready deployment." },
    );
  }
  await stores.deployments.lockPublishState(websiteId, now);
  const previousDeploymentId = await stores.deployments.publishedId(websiteId);
  if (previousDeploymentId !== deployment.id)
    await stores.deployments.setPublished(websiteId, deployment.id, now);
  return { deployment, previousDeploymentId };
}

/** The pages a deployment record lists (stored as JSON `[{route, path}]`). */
function pagesOf(record: DeploymentRecord): PageRef[] {
  if (!Array.isArray(record.pages)) return [];
  return record.pages.flatMap((page: unknown) => {
    const { route, path } = (page ?? {}) as Partial<PageRef>;
    return typeof route === "string" && typeof path === "string" ? [{ route, path }] : [];
  });
}

/** A deployment as operations return it. */
export function projectDeployment(record: DeploymentRecord, publishedId: string | null) {
  return {
    id: record.id,
    websiteId: record.websiteId,
    status: record.status,
    createdAt: iso(record.createdAt),
    createdBy: { type: record.createdByType, id: record.createdById },
    sourceHash: record.sourceHash,
    pages: pagesOf(record),
    published: record.id === publishedId,
  };
}
