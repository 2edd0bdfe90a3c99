import type { H3 } from "h3";
import type { OperationOutput } from "../../../tools/index.ts";
import type { Platform } from "../../kernel/platform.ts";
import {
  card,
  cellTitle,
  emptyState,
  type Flash,
  field,
  postButton,
  roleLabel,
  select,
  table,
  when,
} from "../ui/components.ts";
import { html, type SafeHtml } from "../ui/html.ts";
import { csrfField } from "../ui/layout.ts";
import { done, formAction, formField, handle } from "./context.ts";
import { type WebsiteContext, websiteContext, websitePage } from "./website/hub.ts";

type Editor = OperationOutput<"websiteEditors.list">["items"][number];

const editorRoles = [
  { value: "content_editor", label: "Content editor (CMS and assets)" },
  { value: "full_editor", label: "Full editor (also source and publishing)" },
];

function emailRoleForm(
  ctx: WebsiteContext,
  action: string,
  button: string,
  values?: URLSearchParams,
): SafeHtml {
  return html`<form method="post" action="${action}" class="form-grid">${csrfField(ctx.csrf)}
${field({ label: "Email", name: "email", type: "email", required: true, value: values?.get("email") ?? "", autocomplete: "off" })}
${select({ label: "Role", name: "role", value: values?.get("role") ?? "content_editor", options: editorRoles })}
<div class="form-actions"><button type="submit" class="primary">${button}</button></div></form>`;
}

async function render(
  ctx: WebsiteContext,
  state: { flash?: Flash; values?: URLSearchParams; form?: string; status?: number } = {},
): Promise<Response> {
  const websiteId = ctx.website.id;
  const listed = await ctx.call("websiteEditors.list", { websiteId, limit: 100 });
  const base = ctx.path("/editors");
  const rows = (listed.items as Editor[]).map((e) => [
    cellTitle(e.name, e.email),
    roleLabel(e.role),
    when(e.grantedAt),
    postButton({
      action: `${base}/revoke`,
      csrf: ctx.csrf,
      label: "Revoke",
      tone: "danger",
      hidden: { userId: e.userId },
    }),
  ]);
  return websitePage(ctx, {
    tab: "editors",
    title: "Editors",
    flash: state.flash,
    status: state.status,
    body: html`${card({
      title: "Website editors",
      description: "People who can edit only this website, without joining the organization.",
      flush: true,
      body: table(
        ["Editor", "Role", "Since", ""],
        rows,
        emptyState("No editors yet", "Grant an existing user access, or invite someone by email."),
      ),
    })}
<div class="grid-2">
${card({
  title: "Grant access",
  description: "To someone who already has a Sitewright account.",
  body: emailRoleForm(
    ctx,
    `${base}/grant`,
    "Grant access",
    state.form === "grant" ? state.values : undefined,
  ),
})}
${card({
  title: "Invite by email",
  description: "They get a link to accept; it works for new accounts too.",
  body: emailRoleForm(
    ctx,
    `${base}/invite`,
    "Send invitation",
    state.form === "invite" ? state.values : undefined,
  ),
})}
</div>`,
  });
}

/** The editors section of the website page: list, grant to an existing user, invite by email, revoke. */
export function registerEditorPages(app: H3, platform: Platform): void {
  const path = "/orgs/:organizationId/websites/:websiteId/editors";
  app.get(
    path,
    handle(platform, websiteContext, (ctx) => render(ctx)),
  );
  const actions = { grant: "editor-granted", invite: "editor-invited", revoke: "editor-revoked" } as const;
  for (const [action, code] of Object.entries(actions)) {
    app.post(
      `${path}/${action}`,
      formAction(
        platform,
        websiteContext,
        (ctx, failure, form) => render(ctx, { ...failure, values: form, form: action }),
        async (ctx, form) => {
          const websiteId = ctx.website.id;
          if (action === "revoke") {
            await ctx.call("websiteEditors.revoke", { websiteId, userId: formField(form, "userId") });
          } else {
            // grant (an existing user, at once) and invite (by email) take the same form
            const email = form.get("email")?.trim() ?? "";
            const input = {
              websiteId,
              email,
              role: formField<"full_editor" | "content_editor">(form, "role"),
            };
            await (action === "grant"
              ? ctx.call("websiteEditors.grant", input)
              : ctx.call("websiteEditors.invite", input));
          }
          return done(ctx.path("/editors"), code);
        },
      ),
    );
  }
}
