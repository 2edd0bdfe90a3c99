import type { H3 } from "h3";
import type { OperationOutput } from "../../../../tools/index.ts";
import type { Platform } from "../../../kernel/platform.ts";
import { badge, card, emptyState, table, when } from "../../ui/components.ts";
import { html } from "../../ui/html.ts";
import { handle } from "../context.ts";
import { shortId, type WebsiteContext, websiteContext, websitePage } from "./hub.ts";

const PAGE_SIZE = 200;

type SourceFile = OperationOutput<"websiteSourceCode.files.list">["items"][number];

/** Bytes as B, KiB or MiB. */
function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

const filePath = (ctx: WebsiteContext, path: string) =>
  ctx.path(`/source/file?path=${encodeURIComponent(path)}`);

async function renderList(ctx: WebsiteContext) {
  const websiteId = ctx.website.id;
  const cursor = ctx.event.url.searchParams.get("cursor") ?? undefined;
  const listed = await ctx.call("websiteSourceCode.files.list", {
    websiteId,
    limit: PAGE_SIZE,
    ...(cursor ? { cursor } : {}),
  });
  // Which files publishing would change (a live site compared with the draft).
  const changes = ctx.liveDeploymentId
    ? await ctx.call("websiteSourceCode.changes.list", { websiteId })
    : undefined;
  const changed = new Map<string, string>();
  for (const c of changes?.added ?? []) changed.set(c.path, "added");
  for (const c of changes?.modified ?? []) changed.set(c.path, "modified");
  const rows = (listed.items as SourceFile[]).map((f) => [
    html`<a href="${filePath(ctx, f.path)}" class="mono">${f.path}</a>${
      changed.has(f.path) ? html` ${badge(changed.get(f.path)!, "accent")}` : ""
    }`,
    size(f.size),
    when(f.updatedAt),
  ]);
  const next = listed.nextCursor
    ? html`<a class="btn small" href="${ctx.path(`/source?cursor=${encodeURIComponent(listed.nextCursor)}`)}">More files</a>`
    : undefined;
  return websitePage(ctx, {
    tab: "source",
    title: "Source",
    body: card({
      title: "Draft source files",
      description: changes?.deleted.length
        ? `Read-only. ${changes.deleted.length} file(s) of the live version are deleted from the draft.`
        : "Read-only. Agents edit the source through the API; the next publish builds it.",
      flush: true,
      body: table(["Path", "Size", "Updated"], rows, emptyState("No files", "The draft has no files.")),
      footer: next,
    }),
  });
}

async function renderFile(ctx: WebsiteContext) {
  const path = ctx.event.url.searchParams.get("path") ?? "";
  const file = await ctx.call("websiteSourceCode.files.get", { websiteId: ctx.website.id, path });
  return websitePage(ctx, {
    tab: "source",
    title: file.path,
    body: html`<div class="crumbs"><a href="${ctx.path("/source")}">Source</a> <span aria-hidden="true">/</span> <span class="mono">${file.path}</span></div>
${card({
  title: file.path,
  description: html`${size(file.size)} · updated ${when(file.updatedAt)} · sha256 ${shortId(file.sha256)}`,
  flush: true,
  body: html`<pre class="code" data-testid="source-content"><code>${file.content}</code></pre>`,
})}`,
  });
}

/** The source section: the draft's files (read-only, paged) and one file's text, escaped. */
export function registerSourcePages(app: H3, platform: Platform): void {
  const path = "/orgs/:organizationId/websites/:websiteId/source";
  app.get(path, handle(platform, websiteContext, renderList));
  app.get(`${path}/file`, handle(platform, websiteContext, renderFile));
}
