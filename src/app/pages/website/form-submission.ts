import type { H3 } from "h3";
import type { Platform } from "../../../kernel/platform.ts";
import { badge, card, type Flash, postButton, when } from "../../ui/components.ts";
import { html } from "../../ui/html.ts";
import { done, formAction, handle, param } from "../context.ts";
import { STATES, stateTone } from "./forms.ts";
import { type WebsiteContext, websiteContext, websitePage } from "./hub.ts";

/** One submission: every value as sent, its files, spam reasons, and its triage buttons. */
async function render(ctx: WebsiteContext, state: { flash?: Flash; status?: number } = {}) {
  const submissionId = param(ctx.event, "submissionId");
  const s = await ctx.call("forms.submissions.get", { websiteId: ctx.website.id, submissionId });
  const action = (rest: string) => ctx.path(`/forms/submissions/${encodeURIComponent(s.id)}${rest}`);
  const values = Object.entries(s.values).map(
    ([name, value]) =>
      html`<dt>${name}</dt><dd class="value-code">${Array.isArray(value) ? value.join("\n") : value}</dd>`,
  );
  const files = s.files.map(
    (f) =>
      html`<dt>${f.field}</dt><dd>${f.filename} <span class="muted">${f.contentType}, ${f.size} bytes</span></dd>`,
  );
  const triage = ctx.can("forms.submissions.updateState")
    ? STATES.filter((next) => next !== s.state).map((next) =>
        postButton({
          action: action("/state"),
          csrf: ctx.csrf,
          label: `Mark ${next}`,
          hidden: { state: next },
        }),
      )
    : [];
  const remove = ctx.can("forms.submissions.delete")
    ? postButton({ action: action("/delete"), csrf: ctx.csrf, label: "Delete", tone: "danger" })
    : "";
  return websitePage(ctx, {
    tab: "forms",
    title: "Submission",
    ...state,
    body: html`<p><a href="${ctx.path("/forms")}">All submissions</a></p>${card({
      title: `${s.formName} submission`,
      actions: html`<span data-testid="submission-state">${badge(s.state, stateTone[s.state])}</span>`,
      description: html`Received ${when(s.createdAt)}${s.page ? html` from <code>${s.page}</code>` : ""}.`,
      body: html`<dl class="kv" data-testid="submission-values">${values}${files}${
        s.spamReasons.length ? html`<dt>Spam checks</dt><dd>${s.spamReasons.join("; ")}</dd>` : ""
      }</dl>`,
      footer: html`<div class="form-actions wrap">${triage}${remove}</div>`,
    })}`,
  });
}

/** The submission page of the forms section, with its state change and delete actions. */
export function registerFormSubmissionPages(app: H3, platform: Platform): void {
  const path = "/orgs/:organizationId/websites/:websiteId/forms/submissions/:submissionId";
  app.get(
    path,
    handle(platform, websiteContext, (ctx) => render(ctx)),
  );
  app.post(
    `${path}/state`,
    formAction(
      platform,
      websiteContext,
      (ctx, failure) => render(ctx, failure),
      async (ctx, form) => {
        const submissionId = param(ctx.event, "submissionId");
        const state = (form.get("state") ?? "") as (typeof STATES)[number];
        await ctx.call("forms.submissions.updateState", {
          websiteId: ctx.website.id,
          submissionIds: [submissionId],
          state,
        });
        return done(
          ctx.path(`/forms/submissions/${encodeURIComponent(submissionId)}`),
          "submissions-updated",
        );
      },
    ),
  );
  app.post(
    `${path}/delete`,
    formAction(
      platform,
      websiteContext,
      (ctx, failure) => render(ctx, failure),
      async (ctx) => {
        const submissionId = param(ctx.event, "submissionId");
        await ctx.call("forms.submissions.delete", {
          websiteId: ctx.website.id,
          submissionIds: [submissionId],
        });
        return done(ctx.path("/forms"), "submissions-deleted");
      },
    ),
  );
}
