import { request as httpRequest } from "node:http";
import { buildSite } from "../../src/framework/index.ts";
import type { BuildResult } from "../../src/framework/types.ts";
import type { Platform } from "../../src/kernel/platform.ts";
import type { Principal } from "../../src/kernel/principal.ts";
import {
  commitDeployment,
  type PreparedDeployment,
  storeBuild,
} from "../../src/services/publishing/deployments.ts";
import type { MatrixContext } from "./matrix.ts";

/**
 * Publishes a build the way the publishing service does (its `storeBuild` and `commitDeployment`): pages, assets
 * and server function bundles into the blob store, then one transaction that inserts the deployment (reusing a
 * ready one of the same source) and, unless `publish` is false, points the website at it. Returns its id.
 */
export async function publishBuild(
  platform: Platform,
  websiteId: string,
  result: BuildResult,
  options: { createdById?: string; publish?: boolean } = {},
): Promise<string> {
  const build = await storeBuild(platform, result);
  const id = options.createdById ?? "test";
  const principal: Principal = { type: "api_key", id, label: id, grants: [], bucketKey: id };
  const committed = await platform.db.transaction(async (s) => {
    const prepared: PreparedDeployment = {
      websiteId,
      sourceHash: result.sourceHash,
      files: [],
      publishedIdAtRead: await s.deployments.publishedId(websiteId),
      build,
    };
    return commitDeployment(s, prepared, principal, Date.now(), { publish: options.publish !== false });
  });
  return committed.deployment.id;
}

/** Builds `files` in publish mode and publishes the result. */
export async function publishFiles(
  platform: Platform,
  websiteId: string,
  files: Map<string, string> | Record<string, string>,
  options: { createdById?: string; publish?: boolean } = {},
): Promise<{ deploymentId: string; result: BuildResult }> {
  const website = await platform.db.read((stores) => stores.websites.get(websiteId));
  const result = await buildSite({
    files: files instanceof Map ? files : new Map(Object.entries(files)),
    organizationId: website!.organizationId,
    mode: "publish",
  });
  return { deploymentId: await publishBuild(platform, websiteId, result, options), result };
}

/** Points a website at a deployment (what a rollback does). */
export function setPublished(
  platform: Platform,
  websiteId: string,
  deploymentId: string | null,
): Promise<void> {
  return platform.db.transaction((s) => s.deployments.setPublished(websiteId, deploymentId, Date.now()));
}

export interface RawResponse {
  status: number;
  headers: Headers;
  body: Buffer;
}

/**
 * One request over a real socket with any Host header and the path sent byte for byte (fetch would rewrite
 * both: it normalizes `/../` and refuses to set Host). `onSent` runs once the whole request is written to the
 * connected socket (the server has it), before the answer comes.
 */
export function rawRequest(
  port: number,
  host: string,
  path: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: Uint8Array | string;
    onSent?: () => void;
  } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path,
        method: options.method ?? "GET",
        headers: { ...options.headers, host },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (Array.isArray(value)) for (const v of value) headers.append(name, v);
            else if (value !== undefined) headers.set(name, value);
          }
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    if (options.onSent) req.once("finish", options.onSent);
    req.end(options.body);
  });
}

/**
 * A visitor's JSON POST to a live site's server function (`/_framework/server/<name>` on `<slug>.localhost`):
 * over the matrix's real socket in server mode, through `app.fetch` in-process.
 */
export async function visitFunction(
  ctx: MatrixContext,
  slug: string,
  name: string,
  body: unknown,
): Promise<{ status: number; body: string; headers: Headers }> {
  const host = `${slug}.localhost`;
  const path = `/_framework/server/${name}`;
  const init = {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  };
  if (ctx.mode === "server") {
    const res = await rawRequest(Number(new URL(ctx.origin).port), host, path, init);
    return { status: res.status, body: res.body.toString(), headers: res.headers };
  }
  const res = await ctx.t.app.fetch(
    new Request(`http://${host}${path}`, { ...init, headers: { ...init.headers, host } }),
  );
  return { status: res.status, body: await res.text(), headers: res.headers };
}
