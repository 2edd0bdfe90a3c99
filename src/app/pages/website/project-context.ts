import type { H3 } from "h3";
import type { OperationOutput } from "../../../../tools/index.ts";
import type { Platform } from "../../../kernel/platform.ts";
import { searchTerms } from "../../../services/context/passages.ts";
import { card, cellTitle, emptyState, type Flash, postButton, table, when } from "../../ui/components.ts";
import { html, raw, type SafeHtml } from "../../ui/html.ts";
import { csrfField } from "../../ui/layout.ts";
import { uploadForm } from "../../ui/upload.ts";
import { done, type FormFailure, formAction, handle, param } from "../context.ts";
import { type WebsiteContext, websiteContext, websitePage } from "./hub.ts";

type Document = OperationOutput<"context.list">["items"][number];
type Passage = OperationOutput<"context.search">["passages"][number];

const PAGE_SIZE = 50;
const ACCEPT =
  ".pdf,.md,.markdown,.txt,.html,.htm,application/pdf,text/markdown,text/plain,text/html,image/*";
const n = (value: number) => value.toLocaleString("en-US");

const styles = raw(`<style>
.passages{list-style:none;margin:12px 0 0;padding:0}.passage{padding:10px 0;border-top:1px solid var(--border)}
.passage-text{margin:4px 0 0;overflow-wrap:anywhere;white-space:pre-wrap}.passage mark{background:#fde68a;color:inherit;border-radius:2px}
.inline-form{display:flex;flex-wrap:wrap;gap:6px;align-items:center}.inline-form input{min-width:0;flex:1 1 140px}
.doc-actions{display:flex;gap:6px;flex-wrap:wrap;justify-content:flex-end}td .cell-title{overflow-wrap:anywhere}
</style>`);

/** A size in bytes as B, KiB or MiB. */
function bytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KiB`;
  return `${(size / 1024 / 1024).toFixed(1)} MiB`;
}

/** The short name of a document's media type (PDF, Markdown, PNG…). */
function kind(mediaType: string): string {
  const names: Record<string, string> = {
    "application/pdf": "PDF",
    "text/markdown": "Markdown",
    "text/plain": "Text",
    "text/html": "HTML",
  };
  return names[mediaType] ?? (mediaType.split("/")[1] ?? mediaType).toUpperCase();
}

/** What text was extracted: characters (and PDF pages), or why there is none. */
function textStatus(doc: Document): SafeHtml {
  if (doc.mediaType.startsWith("image/")) return html`<span class="muted">No text (image; no OCR)</span>`;
  if (doc.textLength === 0) return html`<span class="muted">No text found</span>`;
  const pages = doc.pageCount === null ? "" : ` · ${n(doc.pageCount)} page${doc.pageCount === 1 ? "" : "s"}`;
  return html`${n(doc.textLength)} characters${pages}`;
}

/** `text` with every whole-word occurrence of `terms` in <mark> (any case, as the search matched them). */
export function highlight(text: string, terms: readonly string[]): SafeHtml {
  if (terms.length === 0) return html`${text}`;
  const escaped = terms.map((term) => term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${escaped.join("|")})(?![\\p{L}\\p{N}])`, "giu");
  const parts: SafeHtml[] = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    parts.push(html`${text.slice(last, match.index)}<mark>${match[0]}</mark>`);
    last = match.index + match[0].length;
  }
  parts.push(html`${text.slice(last)}`);
  return html`${parts}`;
}

function passageRow(passage: Passage, terms: readonly string[]): SafeHtml {
  const where = passage.page === null ? `character ${n(passage.offset)}` : `page ${passage.page}`;
  return html`<li class="passage" data-testid="passage"><div class="cell-title">${passage.name} <span class="muted small" data-testid="position">${where}</span></div>
<p class="passage-text">…${highlight(passage.text, terms)}…</p></li>`;
}

async function searchCard(ctx: WebsiteContext, query: string): Promise<SafeHtml> {
  if (!ctx.can("context.search")) return html``;
  const form = html`<form method="get" action="${ctx.path("/context")}" class="filters" role="search"><div class="field"><label for="f-q">Search the documents</label><input id="f-q" type="search" name="q" value="${query}" placeholder="brand colours opening hours"></div><div class="form-actions"><button type="submit">Search</button></div></form>`;
  if (!query) return card({ title: "Search", body: form });
  const { passages } = await ctx.call("context.search", { websiteId: ctx.website.id, query, limit: 10 });
  const terms = searchTerms(query);
  return card({
    title: "Search",
    description: `${n(passages.length)} passage${passages.length === 1 ? "" : "s"}, best document first.`,
    body: html`${form}${
      passages.length
        ? html`<ol class="passages">${passages.map((p) => passageRow(p, terms))}</ol>`
        : emptyState(
            "No passage found",
            "No document holds these words. Try other words, or upload more material.",
          )
    }`,
  });
}

function documentRow(ctx: WebsiteContext, doc: Document, editing: boolean): SafeHtml[] {
  const action = (rest: string) => ctx.path(`/context/${encodeURIComponent(doc.id)}${rest}`);
  const name = editing
    ? html`<form method="post" action="${action("")}" class="inline-form" data-testid="rename-form">${csrfField(ctx.csrf)}<input type="text" name="name" value="${doc.name}" aria-label="New name" required><button type="submit" class="small primary">Save</button><a class="btn small" href="${ctx.path("/context")}">Cancel</a></form>`
    : cellTitle(doc.name);
  const actions = [
    ctx.can("context.rename") && !editing
      ? html`<a class="btn small" href="${ctx.path(`/context?rename=${encodeURIComponent(doc.id)}`)}">Rename</a>`
      : "",
    ctx.can("context.delete")
      ? postButton({ action: action("/delete"), csrf: ctx.csrf, label: "Delete", tone: "danger" })
      : "",
  ];
  return [
    name,
    html`${kind(doc.mediaType)}`,
    html`<span class="nowrap">${bytes(doc.size)}</span>`,
    textStatus(doc),
    when(doc.createdAt),
    html`<div class="doc-actions">${actions}</div>`,
  ];
}

async function render(
  ctx: WebsiteContext,
  state: { flash?: Flash; status?: number } = {},
  renamingId?: string,
) {
  const url = ctx.event.url.searchParams;
  const query = url.get("q")?.trim() ?? "";
  const cursor = url.get("cursor");
  const renaming = renamingId ?? url.get("rename");
  const listed = await ctx.call("context.list", {
    websiteId: ctx.website.id,
    limit: PAGE_SIZE,
    ...(cursor ? { cursor } : {}),
  });
  const upload = ctx.can("context.upload")
    ? card({
        title: "Upload",
        description:
          "PDF, Markdown, text, HTML and images (JPEG, PNG, WebP, GIF, AVIF) up to 25 MiB. The type is read from the file; the text is extracted for search.",
        body: uploadForm({
          api: `/app-api/v1/websites/${encodeURIComponent(ctx.website.id)}/context`,
          done: ctx.path("/context?done=context-uploaded"),
          csrf: ctx.csrf,
          accept: ACCEPT,
        }),
      })
    : "";
  const next = listed.nextCursor
    ? html`<a class="btn small" href="${ctx.path(`/context?cursor=${encodeURIComponent(listed.nextCursor)}`)}">More documents</a>`
    : "";
  return websitePage(ctx, {
    tab: "context",
    title: "Project context",
    ...state,
    body: html`${styles}${upload}${await searchCard(ctx, query)}${card({
      title: "Documents",
      description:
        "Private reference material for this website's agents and editors: never served on the site.",
      flush: true,
      body: table(
        ["Name", "Type", "Size", "Text", "Uploaded", ""],
        listed.items.map((doc) => documentRow(ctx, doc, doc.id === renaming)),
        emptyState(
          "No documents",
          "Upload a brief, a brand guide or notes to give the website's agent context.",
        ),
      ),
      footer: next || undefined,
    })}`,
  });
}

/** The project context section: upload by picking or dropping, the documents with rename and delete, and search. */
export function registerProjectContextPages(app: H3, platform: Platform): void {
  const path = "/orgs/:organizationId/websites/:websiteId/context";
  // a refused rename keeps its row's form open
  const onError = (ctx: WebsiteContext, failure: FormFailure, form: URLSearchParams) =>
    render(ctx, failure, form.has("name") ? param(ctx.event, "documentId") : undefined);
  app.get(
    path,
    handle(platform, websiteContext, (ctx) => render(ctx)),
  );
  app.post(
    `${path}/:documentId`,
    formAction(platform, websiteContext, onError, async (ctx, form) => {
      await ctx.call("context.rename", {
        websiteId: ctx.website.id,
        documentId: param(ctx.event, "documentId"),
        name: form.get("name") ?? "",
      });
      return done(ctx.path("/context"), "context-renamed");
    }),
  );
  app.post(
    `${path}/:documentId/delete`,
    formAction(platform, websiteContext, onError, async (ctx) => {
      await ctx.call("context.delete", {
        websiteId: ctx.website.id,
        documentId: param(ctx.event, "documentId"),
      });
      return done(ctx.path("/context"), "context-deleted");
    }),
  );
}
