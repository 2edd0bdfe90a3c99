import type { H3 } from "h3";
import type { Platform } from "../../../kernel/platform.ts";
import { badge, card, emptyState, field, postButton, table, when } from "../../ui/components.ts";
import { html, type SafeHtml } from "../../ui/html.ts";
import { csrfField } from "../../ui/layout.ts";
import { done, type FormFailure, formAction, param } from "../context.ts";
import { type WebsiteContext, websiteContext, websitePage } from "./hub.ts";

/**
 * The notification recipients of the forms section: who is mailed new submissions (pending until the address
 * confirms the link mailed to it), with add and remove for full editors. Empty for roles that cannot list them.
 */
export async function recipientsCard(ctx: WebsiteContext, email = ""): Promise<SafeHtml> {
  if (!ctx.can("forms.recipients.list")) return html``;
  const listed = await ctx.call("forms.recipients.list", { websiteId: ctx.website.id });
  const canRemove = ctx.can("forms.recipients.remove");
  const rows = listed.items.map((r) => [
    html`<span data-testid="recipient">${r.email}</span>`,
    r.status === "confirmed" ? badge("confirmed", "success") : badge("pending", "warn"),
    when(r.confirmedAt ?? r.createdAt),
    canRemove
      ? postButton({
          action: ctx.path(`/forms/recipients/${encodeURIComponent(r.id)}/remove`),
          csrf: ctx.csrf,
          label: "Remove",
          tone: "danger",
        })
      : "",
  ]);
  const add = ctx.can("forms.recipients.add")
    ? html`<form method="post" action="${ctx.path("/forms/recipients")}">${csrfField(ctx.csrf)}${field({
        label: "Email address",
        name: "email",
        type: "email",
        required: true,
        value: email,
        hint: "We mail it a confirmation link; it receives submissions once it confirms.",
      })}<div class="form-actions"><button type="submit" class="primary">Add recipient</button></div></form>`
    : "";
  return card({
    title: "Notification recipients",
    description: "Confirmed addresses are mailed new submissions of forms with notifications on.",
    body: html`${table(
      ["Address", "Status", "Since", ""],
      rows,
      emptyState("No recipients", "Nobody is mailed new submissions yet."),
    )}${add}`,
  });
}

/** Re-renders the forms section's recipients with an error (the rest of the section is one click away). */
async function renderError(ctx: WebsiteContext, failure: FormFailure, form: URLSearchParams) {
  return websitePage(ctx, {
    tab: "forms",
    title: "Notification recipients",
    ...failure,
    body: html`<p><a href="${ctx.path("/forms")}">Back to forms</a></p>${await recipientsCard(ctx, form.get("email") ?? "")}`,
  });
}

/** Add (mails a confirmation link) and remove a notification recipient. */
export function registerFormRecipientActions(app: H3, platform: Platform): void {
  const path = "/orgs/:organizationId/websites/:websiteId/forms/recipients";
  app.post(
    path,
    formAction(platform, websiteContext, renderError, async (ctx, form) => {
      await ctx.call("forms.recipients.add", { websiteId: ctx.website.id, email: form.get("email") ?? "" });
      return done(ctx.path("/forms"), "recipient-added");
    }),
  );
  app.post(
    `${path}/:recipientId/remove`,
    formAction(platform, websiteContext, renderError, async (ctx) => {
      const recipientId = param(ctx.event, "recipientId");
      await ctx.call("forms.recipients.remove", { websiteId: ctx.website.id, recipientId });
      return done(ctx.path("/forms"), "recipient-removed");
    }),
  );
}
