import type { H3 } from "h3";
import type { OperationOutput } from "../../../tools/index.ts";
import type { Platform } from "../../kernel/platform.ts";
import {
  badge,
  card,
  cellTitle,
  emptyState,
  type Flash,
  field,
  flash,
  pageHeader,
  postButton,
  roleLabel,
  select,
  type Tone,
  table,
  when,
} from "../ui/components.ts";
import { html } from "../ui/html.ts";
import { csrfField } from "../ui/layout.ts";
import {
  done,
  formAction,
  formField,
  handle,
  notice,
  type OrgContext,
  orgContext,
  orgPath,
  page,
  param,
} from "./context.ts";
import { memberRoles } from "./members.ts";

type Invitation = OperationOutput<"organizations.invitations.list">["items"][number];

const statusTone: Record<string, Tone> = {
  pending: "accent",
  accepted: "success",
  revoked: "danger",
  expired: "warn",
};

async function render(
  ctx: OrgContext,
  state: { flash?: Flash; values?: URLSearchParams; status?: number } = {},
): Promise<Response> {
  const listed = await ctx.call("organizations.invitations.list", {
    organizationId: ctx.organization.id,
    limit: 100,
  });
  const invitations = listed.items as Invitation[];
  const invitationPath = (i: Invitation, action: string) =>
    orgPath(ctx, `/invitations/${encodeURIComponent(i.id)}/${action}`);
  const rows = invitations.map((i) => [
    cellTitle(i.email, i.websiteId ? `${roleLabel(i.role)} of one website` : roleLabel(i.role)),
    badge(i.status, statusTone[i.status] ?? "neutral"),
    when(i.createdAt),
    when(i.expiresAt),
    i.status === "pending" || i.status === "expired"
      ? html`${postButton({ action: invitationPath(i, "resend"), csrf: ctx.csrf, label: "Resend" })}${
          i.status === "pending"
            ? postButton({
                action: invitationPath(i, "revoke"),
                csrf: ctx.csrf,
                label: "Revoke",
                tone: "danger",
              })
            : ""
        }`
      : "",
  ]);
  const values = state.values;
  return page(ctx, {
    title: "Invitations",
    nav: "invitations",
    status: state.status,
    body: html`${pageHeader("Invitations", "Invite people by email. They get a link to join this organization with the role you pick.")}
${flash(state.flash ?? notice(ctx))}
${card({
  title: "Invite by email",
  body: html`<form method="post" action="${orgPath(ctx, "/invitations")}" class="form-grid">${csrfField(ctx.csrf)}
<div class="form-row">${field({ label: "Email", name: "email", type: "email", required: true, value: values?.get("email") ?? "", placeholder: "teammate@example.com", autocomplete: "off" })}
${select({
  label: "Role",
  name: "role",
  value: values?.get("role") ?? "content_editor",
  options: memberRoles.map((r) => ({ value: r, label: roleLabel(r) })),
})}</div>
<div class="form-actions"><button type="submit" class="primary">Send invitation</button></div></form>`,
})}
${card({
  title: "Sent invitations",
  flush: true,
  body: table(
    ["Invitee", "Status", "Sent", "Expires", ""],
    rows,
    emptyState("No invitations", "Invitations you send appear here with their status."),
  ),
})}`,
  });
}

/** Organization invitations: invite by email with a role, list with status and expiry, revoke, resend. */
export function registerInvitationPages(app: H3, platform: Platform): void {
  app.get(
    "/orgs/:organizationId/invitations",
    handle(platform, orgContext, (ctx) => render(ctx)),
  );
  app.post(
    "/orgs/:organizationId/invitations",
    formAction(
      platform,
      orgContext,
      (ctx, failure, form) => render(ctx, { ...failure, values: form }),
      async (ctx, form) => {
        await ctx.call("organizations.invitations.create", {
          organizationId: ctx.organization.id,
          email: form.get("email")?.trim() ?? "",
          role: formField(form, "role"),
        });
        return done(orgPath(ctx, "/invitations"), "invitation-sent");
      },
    ),
  );
  for (const action of ["revoke", "resend"] as const) {
    app.post(
      `/orgs/:organizationId/invitations/:invitationId/${action}`,
      formAction(platform, orgContext, render, async (ctx) => {
        await ctx.call(`organizations.invitations.${action}`, {
          organizationId: ctx.organization.id,
          invitationId: param(ctx.event, "invitationId"),
        });
        return done(
          orgPath(ctx, "/invitations"),
          action === "revoke" ? "invitation-revoked" : "invitation-resent",
        );
      }),
    );
  }
}
