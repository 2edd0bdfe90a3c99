import type { DeploymentFileRecord } from "../../db/stores/deployments.ts";
import type { Stores } from "../../db/stores/index.ts";
import type { SourceFileRecord } from "../../db/stores/source-files.ts";
import { ApiError } from "../../kernel/errors.ts";
import { isIdShaped } from "../../kernel/ids.ts";
import { unifiedDiff } from "./diff.ts";
import { limits } from "./limits.ts";

/** What the draft is compared with: a deployment's source files, or nothing when none is published. */
export interface Base {
  deploymentId: string | null;
  files: Map<string, DeploymentFileRecord>;
}

/** The base of a comparison: `deploymentId` (of this website, else `not_found`) or the published deployment. */
export async function baseOf(stores: Stores, websiteId: string, deploymentId?: string): Promise<Base> {
  let id = deploymentId ?? null;
  if (deploymentId !== undefined) {
    const deployment = isIdShaped(deploymentId) ? await stores.deployments.get(deploymentId) : undefined;
    if (!deployment || deployment.websiteId !== websiteId) {
      throw new ApiError("not_found", `deploymentId: deployment '${deploymentId}' was not found.`, {
        suggestion: "Omit deploymentId to compare with the published version.",
      });
    }
  } else {
    id = await stores.deployments.publishedId(websiteId);
  }
  const files = id ? await stores.deployments.files(id) : [];
  return { deploymentId: id, files: new Map(files.map((file) => [file.path, file])) };
}

export type ChangeStatus = "added" | "modified" | "deleted" | "unchanged";

export interface Change {
  path: string;
  status: ChangeStatus;
  draft?: SourceFileRecord;
  base?: DeploymentFileRecord;
}

/** Every path of the draft or the base with its status, in byte order of path. */
export async function compare(stores: Stores, websiteId: string, base: Base): Promise<Change[]> {
  const draft = await stores.sourceFiles.list(websiteId, {});
  const changes: Change[] = draft.map((file) => {
    const was = base.files.get(file.path);
    const status = !was ? "added" : was.sha256 === file.sha256 ? "unchanged" : "modified";
    return { path: file.path, status, draft: file, ...(was ? { base: was } : {}) };
  });
  const inDraft = new Set(draft.map((file) => file.path));
  for (const [path, was] of base.files) {
    if (!inDraft.has(path)) changes.push({ path, status: "deleted", base: was });
  }
  return changes.sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
}

export interface FileDiff {
  path: string;
  status: ChangeStatus;
  diff: string;
}

/**
 * Unified diffs of `changes` (base → draft), in order, until the text reaches the per-call limit; the paths
 * that did not fit are returned as omitted.
 */
export async function diffChanges(
  stores: Stores,
  changes: readonly Change[],
  context: number,
): Promise<{ files: FileDiff[]; omittedPaths: string[] }> {
  const files: FileDiff[] = [];
  const omittedPaths: string[] = [];
  let total = 0;
  for (const change of changes) {
    if (total >= limits.maxDiffChars) {
      omittedPaths.push(change.path);
      continue;
    }
    const text = async (sha256: string | undefined) =>
      sha256 === undefined ? undefined : ((await stores.sourceFiles.getContent(sha256)) ?? "");
    const diff =
      change.status === "unchanged"
        ? ""
        : unifiedDiff(
            change.path,
            await text(change.base?.sha256),
            await text(change.draft?.sha256),
            context,
          );
    if (files.length > 0 && total + diff.length > limits.maxDiffChars) {
      omittedPaths.push(change.path);
      total = limits.maxDiffChars;
      continue;
    }
    total += diff.length;
    files.push({ path: change.path, status: change.status, diff });
  }
  return { files, omittedPaths };
}
