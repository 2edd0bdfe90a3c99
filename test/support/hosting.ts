import { request as httpRequest } from "node:http";
import type { DeploymentOutputRecord } from "../../src/db/stores/deployments.ts";
import { buildSite } from "../../src/framework/index.ts";
import type { BuildResult } from "../../src/framework/types.ts";
import { newId } from "../../src/kernel/ids.ts";
import type { Platform } from "../../src/kernel/platform.ts";
import { formsOfBuild } from "../../src/services/publishing/deployments.ts";
import type { MatrixContext } from "./matrix.ts";

/**
 * Publishes a build the way the publishing service will: every page and asset into the blob store, then one
 * transaction that inserts the deployment, its outputs and points the website at it. Returns the deployment id.
 */
export async function publishBuild(
  platform: Platform,
  websiteId: string,
  result: BuildResult,
  options: { createdById?: string; publish?: boolean } = {},
): Promise<string> {
  const outputs: DeploymentOutputRecord[] = [];
  for (const page of result.pages) {
    const body = Buffer.from(page.html);
    const sha256 = await platform.blobs.put(body);
    outputs.push({ path: page.path, sha256, contentType: "text/html; charset=utf-8", size: body.byteLength });
  }
  for (const asset of result.assets) {
    const sha256 = await platform.blobs.put(asset.body);
    outputs.push({ path: asset.path, sha256, contentType: asset.contentType, size: asset.body.byteLength });
  }
  const id = newId();
  const now = Date.now();
  await platform.db.transaction(async (s) => {
    await s.deployments.insert(
      {
        id,
        websiteId,
        status: "ready",
        sourceHash: result.sourceHash,
        createdAt: now,
        createdByType: "api_key",
        createdById: options.createdById ?? "test",
        pages: result.pages.map((p) => p.route),
        error: null,
      },
      [],
    );
    await s.deployments.insertOutputs(id, outputs);
    await s.forms.insertDeploymentForms(id, formsOfBuild(result));
    if (options.publish !== false) await s.deployments.setPublished(websiteId, id, now);
  });
  return id;
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
