import type { H3 } from "h3";
import { ApiError } from "../../kernel/errors.ts";
import type { Platform } from "../../kernel/platform.ts";
import { feedbackCategories } from "../../services/feedback/feedback.ts";
import { badge, card, cellTitle, emptyState, pageHeader, table, when } from "../ui/components.ts";
import { html } from "../ui/html.ts";
import { type AppContext, appContext, errorPage, handle, page } from "./context.ts";

const PAGE_SIZE = 100;

/**
 * Whether the signed-in person is one of the instance's operators: their verified address is listed in
 * `operatorEmails` (SITEWRIGHT_OPERATOR_EMAILS). Organization roles play no part: an owner is not an operator.
 */
export function isOperator(ctx: AppContext): boolean {
  const { email, emailVerifiedAt } = ctx.signedIn.user;
  return emailVerifiedAt !== null && (ctx.platform.config.operatorEmails ?? []).includes(email.toLowerCase());
}

async function feedbackPage(ctx: AppContext): Promise<Response> {
  if (!isOperator(ctx)) return errorPage(ctx, new ApiError("not_found", "No such page."));
  const query = new URL(ctx.event.req.url).searchParams;
  const category = query.get("category") || undefined;
  const organizationId = query.get("organization") || undefined;
  if (category !== undefined && !(feedbackCategories as readonly string[]).includes(category)) {
    return errorPage(
      ctx,
      new ApiError("validation", "category is not a feedback category.", {
        validValues: [...feedbackCategories],
      }),
    );
  }
  const records = await ctx.platform.db.read((stores) =>
    stores.feedback.list({
      limit: PAGE_SIZE,
      ...(category ? { category } : {}),
      ...(organizationId ? { organizationId } : {}),
    }),
  );
  const rows = records.map((r) => [
    when(new Date(r.createdAt).toISOString()),
    r.category ? badge(r.category, "accent") : html`<span class="muted">—</span>`,
    html`<div class="feedback-message">${r.message}</div>`,
    cellTitle(r.principalLabel, `Organization ${r.organizationId}`),
    cellTitle(
      r.operationId ?? "—",
      [r.websiteId && `Website ${r.websiteId}`, r.requestId].filter(Boolean).join(" · "),
    ),
  ]);
  const filters = feedbackCategories.map(
    (c) =>
      html`<a class="btn ${c === category ? "primary" : "ghost"}" href="/operator/feedback?category=${c}">${c}</a>`,
  );
  return page(ctx, {
    title: "Product feedback",
    body: html`${pageHeader("Product feedback", `The newest ${PAGE_SIZE} messages agents and people sent with feedback_submit, from every organization of this instance. Only the instance's operators see this page.`, html`<a class="btn ghost" href="/operator/feedback">All</a>${filters}`)}
${card({
  flush: true,
  body: table(
    ["Sent", "Category", "Message", "From", "About"],
    rows,
    emptyState("No feedback", "Feedback sent through feedback_submit shows up here."),
  ),
})}`,
  });
}

/** The instance operators' page of product feedback (`/operator/feedback`); a 404 for everybody else. */
export function registerOperatorPages(app: H3, platform: Platform): void {
  app.get("/operator/feedback", handle(platform, appContext, feedbackPage));
}
