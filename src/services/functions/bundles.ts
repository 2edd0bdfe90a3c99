// Where a run's bundle comes from: a deployment's (bundled by its publish build) or the draft's (on demand).

import { createHash } from "node:crypto";
import type { Stores } from "../../db/stores/index.ts";
import {
  bundleFunction,
  type FunctionBundle,
  functionNames,
} from "../../framework/functions/bundle-function.ts";
import type { Diagnostic } from "../../framework/types.ts";
import { WeightedLru } from "../../hosting/lru.ts";
import type { Platform } from "../../kernel/platform.ts";
import type { Draft } from "../publishing/draft.ts";

/** A function's bundle, or why it could not be bundled. */
export type BundleResult = FunctionBundle | { errors: Diagnostic[] };

/** Bundles by immutable key (a deployment's function, a draft's source hash): never stale. */
const bundles = new WeightedLru<string, Promise<BundleResult>>(200, 1);
/** The function names of deployments (from their source files' paths): immutable too. */
const deployedNames = new WeightedLru<string, Promise<string[]>>(1_000, 1);

function remember<T>(lru: WeightedLru<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  let found = lru.get(key);
  if (!found) {
    found = load();
    found.catch(() => lru.delete(key));
    lru.set(key, found, 1);
  }
  return found;
}

/**
 * The bundle of function `name` of the draft, bundled on the first call and cached by the draft's source hash
 * (every file's path and content hash), so an unchanged draft is bundled once per node.
 */
export function draftBundle(platform: Platform, draft: Draft, name: string): Promise<BundleResult> {
  const hash = createHash("sha256");
  for (const row of draft.rows) hash.update(`${row.path}\0${row.sha256}\0`);
  return remember(bundles, `draft:${hash.digest("hex")}:${name}`, async () => {
    platform.metrics.functionBundled("draft");
    return bundleFunction(draft.files, name);
  });
}

/**
 * The bundle of function `name` of a deployment, as its publish build stored it (a blob of `{js, map}`), or
 * undefined when the deployment has no such function. A deployment built before functions were bundled at publish
 * has no stored bundles: its function is bundled from the deployment's source files, once per node.
 */
export async function deploymentBundle(
  platform: Platform,
  deploymentId: string,
  name: string,
): Promise<BundleResult | undefined> {
  const names = await remember(deployedNames, deploymentId, () =>
    platform.db.read(async (stores) =>
      functionNames((await stores.deployments.files(deploymentId)).map((row) => row.path)),
    ),
  );
  if (!names.includes(name)) return undefined;
  return remember(bundles, `deployment:${deploymentId}:${name}`, async () => {
    const stored = await platform.db.read((stores) => stores.deployments.function(deploymentId, name));
    if (stored) {
      const bytes = await platform.blobs.get(stored.bundleSha256);
      if (!bytes) throw new Error(`blob ${stored.bundleSha256} of ${deploymentId}:${name} is missing`);
      const { js, map } = JSON.parse(Buffer.from(bytes).toString("utf8")) as FunctionBundle;
      return { js, map };
    }
    const files = await platform.db.read((stores) => deploymentSource(stores, deploymentId));
    platform.metrics.functionBundled("deployment");
    return bundleFunction(files, name);
  });
}

/** The source files of a deployment (path → text). */
async function deploymentSource(stores: Stores, deploymentId: string): Promise<Map<string, string>> {
  const rows = await stores.deployments.files(deploymentId);
  const texts = await stores.sourceFiles.getContents(rows.map((row) => row.sha256));
  return new Map(rows.map((row) => [row.path, texts.get(row.sha256) ?? ""]));
}
