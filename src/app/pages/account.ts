import type { H3 } from "h3";
import { ApiError } from "../../kernel/errors.ts";
import type { Platform } from "../../kernel/platform.ts";
import { listConnectedClients } from "../../oauth/connections.ts";
import {
  badge,
  card,
  cellTitle,
  emptyState,
  type Flash,
  flash,
  pageHeader,
  postButton,
  table,
  when,
} from "../ui/components.ts";
import { html } from "../ui/html.ts";
import {
  type AppContext,
  appContext,
  devMode,
  done,
  errorPage,
  formAction,
  handle,
  notice,
  page,
  param,
} from "./context.ts";

const OUTBOX_LIMIT = 50;

async function clientsPage(ctx: AppContext, state: { flash?: Flash; status?: number } = {}) {
  const clients = await listConnectedClients(ctx.platform, ctx.signedIn.user.id);
  const rows = clients.map((c) => [
    cellTitle(c.clientName, c.redirectHost),
    cellTitle(c.organization.name, c.websites ? c.websites.map((w) => w.name).join(", ") : "All websites"),
    badge(c.access === "write" ? "Read and write" : "Read only", c.access === "write" ? "accent" : "neutral"),
    when(c.createdAt),
    c.lastUsedAt ? when(c.lastUsedAt) : html`<span class="muted">Never</span>`,
    postButton({
      action: `/account/connected-clients/${encodeURIComponent(c.grantId)}/revoke`,
      csrf: ctx.csrf,
      label: "Revoke",
      tone: "danger",
    }),
  ]);
  return page(ctx, {
    title: "Connected clients",
    nav: "clients",
    status: state.status,
    body: html`${pageHeader("Connected clients", "MCP clients you approved (Claude, ChatGPT, VS Code, Cursor...). Revoking one ends its access at once.")}
${flash(state.flash ?? notice(ctx))}
${card({
  flush: true,
  body: table(
    ["Client", "Organization", "Access", "Connected", "Last used", ""],
    rows,
    emptyState(
      "No connected clients",
      "Point an MCP client at the server's /v1/mcp URL and approve it to see it here.",
    ),
  ),
})}`,
  });
}

/**
 * The signed-in user's connected OAuth clients (revoked through `accounts.connectedClients.revoke`), and the dev
 * outbox (only without SMTP): the mail addressed to the signed-in user once their address is verified, never
 * anyone else's (reset and invitation links in it are as good as the mailbox).
 */
export function registerAccountPages(app: H3, platform: Platform): void {
  app.get(
    "/account/connected-clients",
    handle(platform, appContext, (ctx) => clientsPage(ctx)),
  );
  app.post(
    "/account/connected-clients/:grantId/revoke",
    formAction(platform, appContext, clientsPage, async (ctx) => {
      await ctx.call("accounts.connectedClients.revoke", { grantId: param(ctx.event, "grantId") });
      return done("/account/connected-clients", "client-revoked");
    }),
  );

  // Console mail only: with SMTP configured mail leaves the machine and this page does not exist.
  app.get(
    "/dev/outbox",
    handle(platform, appContext, async (ctx) => {
      if (!devMode(ctx.platform)) return errorPage(ctx, new ApiError("not_found", "No such page."));
      const to = ctx.signedIn.user.email.toLowerCase();
      // Mail to an address is shown only to an account that proved it reads that address: before, anyone could
      // sign up with it and read its links here (the verification link itself is printed to the server console).
      if (ctx.signedIn.user.emailVerifiedAt === null) {
        return page(ctx, {
          title: "Dev outbox",
          nav: "outbox",
          body: html`${pageHeader("Dev outbox", `Mail sent to ${to}.`)}
${card({ body: emptyState("Verify your email address to see its mail here", "Until then mail to it is only printed to the server's console, where the verification link is too.") })}`,
        });
      }
      const mail = await ctx.platform.db.read((stores) => stores.mail.recent(OUTBOX_LIMIT, to));
      const items = mail.map(
        (
          m,
        ) => html`<details class="mail-item card"${mail[0] === m ? html` open` : ""}><summary class="card-header"><div>
<h2>${m.subject}</h2><p>To ${m.toAddress} · ${when(new Date(m.createdAt).toISOString())}</p></div>
<span>${badge(m.kind, "accent")} ${m.error ? badge("failed", "danger") : m.sentAt ? badge("delivered", "success") : badge("queued")}</span></summary>
<div class="card-body"><pre class="mail">${linkify(m.textBody)}</pre></div></details>`,
      );
      return page(ctx, {
        title: "Dev outbox",
        nav: "outbox",
        body: html`${pageHeader("Dev outbox", `The last ${OUTBOX_LIMIT} messages the platform sent to ${to}. Without an SMTP server, mail is printed to the server's console and shown here, to its addressee only, instead of being delivered.`)}
${items.length ? items : card({ body: emptyState("No mail yet", "Invitations and password resets addressed to you show up here.") })}`,
      });
    }),
  );
}

/** Escapes mail text and turns its http(s) links into anchors (invitation and reset links). */
function linkify(text: string) {
  const parts = text.split(/(https?:\/\/[^\s<>"']+)/g);
  return parts.map((part, i) => (i % 2 === 1 ? html`<a href="${part}">${part}</a>` : html`${part}`));
}
