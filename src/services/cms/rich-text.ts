import { createHash } from "node:crypto";
import type { CmsFieldRecord } from "../../db/stores/cms.ts";
import {
  MARKDOWN_INLINE_CHARS,
  MARKDOWN_TIME_LIMIT_MS,
  MarkdownTooSlow,
  renderMarkdownOffThread,
} from "../../framework/markdown-pool.ts";
import {
  checkMarkdownDepth,
  MAX_MARKDOWN_DEPTH,
  MarkdownTooDeep,
  renderSafeMarkdown,
} from "../../framework/safe-markdown.ts";
import { WeightedLru } from "../../hosting/lru.ts";
import { ApiError } from "../../kernel/errors.ts";

/**
 * richText is rendered off the main thread, within a time limit, before it is written (a tool's `prepare`, outside
 * any unit of work) and before reads project it; what came out is kept here by the SHA-256 of the Markdown, so the
 * synchronous checks and projections only look it up. `slow` marks a text that passed the time limit.
 */
type Outcome = { html: string } | { slow: true };
const outcomes = new WeightedLru<string, Outcome>(32 * 1024 * 1024);

const hashOf = (markdown: string) => createHash("sha256").update(markdown).digest("base64url");
const escapeText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
/** What a text that cannot be rendered shows: itself, escaped. */
const asText = (markdown: string) => `<pre>${escapeText(markdown)}</pre>`;

let renders = 0;
/** How many richText renders this process ran (inline and off-thread): tests prove reads run none. */
export const richTextRenders = () => renders;

/**
 * Renders `markdown` off the main thread once, queued as organization `owner`'s, and keeps the outcome (depth
 * errors are not kept: they are cheap).
 */
async function prerender(markdown: string, owner: string): Promise<void> {
  const key = hashOf(markdown);
  if (outcomes.get(key)) return;
  let outcome: Outcome;
  try {
    renders++;
    outcome = { html: await renderMarkdownOffThread(markdown, owner) };
  } catch (error) {
    if (error instanceof MarkdownTooDeep) return;
    if (!(error instanceof MarkdownTooSlow)) throw error;
    outcome = { slow: true };
  }
  outcomes.set(key, outcome, markdown.length + ("html" in outcome ? outcome.html.length : 0));
}

/**
 * Renders every long string of `values` off the main thread (the field types are not known yet, and the check that
 * refuses what is too slow or too deep runs later, synchronously, in `checkRichText`). For tools' `prepare`;
 * `owner` is the organization the values belong to.
 */
export async function prerenderValues(
  values: Record<string, unknown> | undefined,
  owner: string,
): Promise<void> {
  for (const value of Object.values(values ?? {})) {
    if (typeof value !== "string" || value.length <= MARKDOWN_INLINE_CHARS) continue;
    try {
      checkMarkdownDepth(value);
    } catch {
      continue;
    }
    await prerender(value, owner);
  }
}

/** Renders the richText values of stored items off the main thread when they are not rendered yet (before reads). */
export async function warmRichText(
  fields: readonly CmsFieldRecord[],
  valueSets: readonly unknown[],
  owner: string,
): Promise<void> {
  const rich = fields.filter((field) => field.type === "richText");
  if (rich.length === 0) return;
  for (const values of valueSets) {
    if (!values || typeof values !== "object") continue;
    for (const field of rich) {
      const value = Object.hasOwn(values, field.key)
        ? (values as Record<string, unknown>)[field.key]
        : undefined;
      if (typeof value === "string" && value.length > MARKDOWN_INLINE_CHARS) await prerender(value, owner);
    }
  }
}

/** richText values: Markdown in, safe HTML out (raw HTML escaped, only safe link and image URLs kept). */
export function renderRichText(markdown: string): string {
  return renderedRichText(markdown) ?? asText(markdown); // a long text never renders on this thread
}

/**
 * The safe HTML of `markdown` when it can be had without rendering a long text on this thread: from what
 * `prerender` kept, or rendered here when short; undefined for a long text not rendered off the main thread yet.
 */
export function renderedRichText(markdown: string): string | undefined {
  const outcome = outcomes.get(hashOf(markdown));
  if (outcome) return "html" in outcome ? outcome.html : asText(markdown);
  try {
    if (markdown.length > MARKDOWN_INLINE_CHARS) {
      checkMarkdownDepth(markdown);
      return undefined;
    }
    renders++;
    return renderSafeMarkdown(markdown);
  } catch (error) {
    if (error instanceof MarkdownTooDeep) return asText(markdown); // stored before the depth cap
    throw error;
  }
}

/** Refuses a richText value nested past the depth cap or too slow to render, naming the field. */
export function checkRichText(key: string, markdown: string): void {
  try {
    checkMarkdownDepth(markdown);
  } catch (error) {
    if (error instanceof MarkdownTooDeep) {
      throw new ApiError("validation", `values.${key}: Markdown ${error.message}.`, {
        suggestion: `Flatten the nesting: at most ${MAX_MARKDOWN_DEPTH} levels of lists and block quotes inside one another.`,
      });
    }
    throw error;
  }
  const outcome = outcomes.get(hashOf(markdown));
  if (outcome && "slow" in outcome) {
    throw new ApiError(
      "validation",
      `values.${key}: Markdown took longer than ${MARKDOWN_TIME_LIMIT_MS / 1000} seconds to render.`,
      {
        suggestion:
          "Simplify the text: long runs of emphasis markers (_ or *), brackets or table pipes make Markdown slow to parse.",
      },
    );
  }
}
