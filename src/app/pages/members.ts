import type { H3 } from "h3";
import type { OperationOutput } from "../../../tools/index.ts";
import type { Platform } from "../../kernel/platform.ts";
import {
  badge,
  card,
  cellTitle,
  emptyState,
  type Flash,
  flash,
  pageHeader,
  postButton,
  roleLabel,
  table,
  when,
} from "../ui/components.ts";
import { html, raw } from "../ui/html.ts";
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
  redirect,
} from "./context.ts";

type Member = OperationOutput<"organizations.members.list">["items"][number];

export const memberRoles = ["owner", "admin", "full_editor", "content_editor"] as const;

async function render(ctx: OrgContext, state: { flash?: Flash; status?: number } = {}): Promise<Response> {
  const listed = await ctx.call("organizations.members.list", {
    organizationId: ctx.organization.id,
    limit: 100,
  });
  const members = listed.items as Member[];
  const me = ctx.signedIn.user.id;
  const memberPath = (m: Member, action: string) =>
    orgPath(ctx, `/members/${encodeURIComponent(m.userId)}/${action}`);
  const rows = members.map((m) => [
    cellTitle(html`${m.name}${m.userId === me ? html` ${badge("You", "accent")}` : ""}`, m.email),
    html`<form method="post" action="${memberPath(m, "role")}" class="form-actions">${csrfField(ctx.csrf)}
<select name="role" aria-label="Role of ${m.email}" style="width:auto;height:30px">${memberRoles.map(
      (r) => html`<option value="${r}"${r === m.role ? raw(" selected") : ""}>${roleLabel(r)}</option>`,
    )}</select><button type="submit" class="small">Save</button></form>`,
    when(m.joinedAt),
    postButton({
      action: memberPath(m, "remove"),
      csrf: ctx.csrf,
      label: m.userId === me ? "Leave" : "Remove",
      tone: "danger",
    }),
  ]);
  return page(ctx, {
    title: "Members",
    nav: "members",
    status: state.status,
    body: html`${pageHeader(
      "Members",
      "People with access to every website of this organization. An organization always keeps at least one owner.",
      html`<a class="btn primary" href="${orgPath(ctx, "/invitations")}">Invite people</a>`,
    )}
${flash(state.flash ?? notice(ctx))}
${card({
  title: `${members.length} ${members.length === 1 ? "member" : "members"}`,
  flush: true,
  body: table(
    ["Member", "Role", "Joined", ""],
    rows,
    emptyState("No members", "Invite people to collaborate."),
  ),
})}`,
  });
}

/** Members of the current organization: list, change role, remove (or leave). */
export function registerMemberPages(app: H3, platform: Platform): void {
  app.get(
    "/orgs/:organizationId/members",
    handle(platform, orgContext, (ctx) => render(ctx)),
  );
  app.post(
    "/orgs/:organizationId/members/:userId/role",
    formAction(platform, orgContext, render, async (ctx, form) => {
      await ctx.call("organizations.members.updateRole", {
        organizationId: ctx.organization.id,
        userId: param(ctx.event, "userId"),
        role: formField(form, "role"),
      });
      return done(orgPath(ctx, "/members"), "role-changed");
    }),
  );
  app.post(
    "/orgs/:organizationId/members/:userId/remove",
    formAction(platform, orgContext, render, async (ctx) => {
      const userId = param(ctx.event, "userId");
      const leaving = userId === ctx.signedIn.user.id;
      await (leaving
        ? ctx.call("organizations.leave", { organizationId: ctx.organization.id })
        : ctx.call("organizations.members.remove", { organizationId: ctx.organization.id, userId }));
      // Leaving: the organization is out of reach now.
      if (leaving) return redirect("/");
      return done(orgPath(ctx, "/members"), "member-removed");
    }),
  );
}
