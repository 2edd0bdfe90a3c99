import type { H3 } from "h3";
import type { OperationInput, OperationOutput } from "../../../tools/index.ts";
import type { Platform } from "../../kernel/platform.ts";
import {
  badge,
  card,
  cellTitle,
  choices,
  copyField,
  emptyState,
  type Flash,
  field,
  flash,
  pageHeader,
  postButton,
  roleLabel,
  select,
  table,
  when,
} from "../ui/components.ts";
import { html, type SafeHtml } from "../ui/html.ts";
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

type ApiKey = OperationOutput<"apiKeys.list">["items"][number];

interface State {
  flash?: Flash;
  values?: URLSearchParams;
  status?: number;
  /** A key just created or rotated, with its plaintext: shown in this response only. */
  secret?: { name: string; plaintextKey: string; rotated: boolean };
}

const statusTone = { active: "success", expired: "warn", revoked: "danger" } as const;

function accessCell(key: ApiKey, websiteNames: Map<string, string>): SafeHtml {
  const scope =
    key.access.kind === "organization"
      ? "Whole organization"
      : (key.access.websiteIds ?? []).map((id) => websiteNames.get(id) ?? id).join(", ") ||
        "No websites left";
  return cellTitle(badge(roleLabel(key.access.role), "accent"), scope);
}

function secretCard(secret: NonNullable<State["secret"]>): SafeHtml {
  return card({
    id: "new-key",
    title: secret.rotated ? `New secret for "${secret.name}"` : `API key "${secret.name}" created`,
    description: "Copy it now: this is the only time it is shown. Store it in your agent's secret settings.",
    body: html`${copyField("plaintext-key", secret.plaintextKey)}
<p class="muted small" style="margin:10px 0 0">Use it as <code>Authorization: Bearer &lt;key&gt;</code> for REST and MCP.</p>`,
  });
}

function createForm(
  ctx: OrgContext,
  websites: { id: string; name: string }[],
  values?: URLSearchParams,
): SafeHtml {
  const kind = values?.get("accessKind") ?? "organization";
  return card({
    title: "Create an API key",
    description: "Keys let agents and scripts call the API and MCP as this organization.",
    body: html`<form method="post" action="${orgPath(ctx, "/api-keys")}" class="form-grid">${csrfField(ctx.csrf)}
<div class="form-row">${field({ label: "Name", name: "name", required: true, value: values?.get("name") ?? "", placeholder: "Deploy agent" })}
${select({
  label: "Role",
  name: "role",
  value: values?.get("role") ?? "content_editor",
  hint: "Admin: keys, websites, members. Full editor: source and publishing. Content editor: CMS and assets.",
  options: [
    { value: "content_editor", label: "Content editor" },
    { value: "full_editor", label: "Full editor" },
    { value: "admin", label: "Admin (whole organization only)" },
  ],
})}
${field({ label: "Expires (optional)", name: "expiresOn", type: "date", value: values?.get("expiresOn") ?? "", hint: "The key stops working at the end of this day (UTC)." })}</div>
${choices({
  legend: "Access",
  name: "accessKind",
  type: "radio",
  checked: [kind],
  options: [
    { value: "organization", label: "Whole organization", hint: "Every website, present and future." },
    {
      value: "websites",
      label: "Selected websites",
      hint: "Only the websites checked below (full or content editor).",
    },
  ],
})}
${
  websites.length
    ? html`<div class="website-choices">${choices({
        legend: "Websites (for selected-website access)",
        name: "websiteIds",
        type: "checkbox",
        checked: values?.getAll("websiteIds") ?? [],
        options: websites.map((w) => ({ value: w.id, label: w.name })),
      })}</div>`
    : ""
}
<div class="form-actions"><button type="submit" class="primary">Create key</button></div></form>`,
  });
}

async function render(ctx: OrgContext, state: State = {}): Promise<Response> {
  const organizationId = ctx.organization.id;
  const [active, revoked, websites] = await Promise.all([
    ctx.call("apiKeys.list", { organizationId, limit: 100 }),
    ctx.call("apiKeys.list", { organizationId, revoked: "only", limit: 100 }),
    ctx.call("websites.list", { organizationId, limit: 100 }),
  ]);
  const sites = (websites.items as { id: string; name: string }[]).map((w) => ({ id: w.id, name: w.name }));
  const names = new Map(sites.map((w) => [w.id, w.name]));
  const keyPath = (key: ApiKey, action: string) =>
    orgPath(ctx, `/api-keys/${encodeURIComponent(key.id)}/${action}`);
  const activeRows = (active.items as ApiKey[]).map((key) => [
    cellTitle(key.name, html`<code>${key.id}</code>`),
    accessCell(key, names),
    badge(key.status, statusTone[key.status]),
    when(key.createdAt),
    key.expiresAt ? when(key.expiresAt) : html`<span class="muted">Never</span>`,
    html`${postButton({ action: keyPath(key, "rotate"), csrf: ctx.csrf, label: "Rotate" })}${postButton({
      action: keyPath(key, "revoke"),
      csrf: ctx.csrf,
      label: "Revoke",
      tone: "danger",
    })}`,
  ]);
  const revokedRows = (revoked.items as ApiKey[]).map((key) => [
    cellTitle(key.name, html`<code>${key.id}</code>`),
    accessCell(key, names),
    when(key.revokedAt),
  ]);
  return page(ctx, {
    title: "API keys",
    nav: "apiKeys",
    status: state.status,
    body: html`${pageHeader("API keys", "Secrets are shown once, when a key is created or rotated. Revoked keys never work again.")}
${flash(state.flash ?? notice(ctx))}
${state.secret ? secretCard(state.secret) : ""}
${card({
  title: "Active keys",
  flush: true,
  body: table(
    ["Name", "Access", "Status", "Created", "Expires", ""],
    activeRows,
    emptyState("No API keys", "Create a key to connect an agent or script."),
  ),
})}
${createForm(ctx, sites, state.secret ? undefined : state.values)}
${card({
  title: "Revoked keys",
  flush: true,
  body: table(
    ["Name", "Access", "Revoked"],
    revokedRows,
    emptyState("No revoked keys", "Keys you revoke are listed here."),
  ),
})}`,
  });
}

/** The `apiKeys.create` input from the form. */
function createInput(ctx: OrgContext, form: URLSearchParams): OperationInput<"apiKeys.create"> {
  const expiresOn = form.get("expiresOn")?.trim();
  return {
    organizationId: ctx.organization.id,
    name: form.get("name")?.trim() ?? "",
    access:
      form.get("accessKind") === "websites"
        ? { kind: "websites", role: formField(form, "role"), websiteIds: form.getAll("websiteIds") }
        : { kind: "organization", role: formField(form, "role") },
    ...(expiresOn ? { expiresAt: `${expiresOn}T23:59:59.999Z` } : {}),
  };
}

/** API keys of the current organization: active and revoked lists, create, rotate (plaintext once), revoke. */
export function registerApiKeyPages(app: H3, platform: Platform): void {
  app.get(
    "/orgs/:organizationId/api-keys",
    handle(platform, orgContext, (ctx) => render(ctx)),
  );
  app.post(
    "/orgs/:organizationId/api-keys",
    formAction(
      platform,
      orgContext,
      (ctx, failure, form) => render(ctx, { ...failure, values: form }),
      async (ctx, form) => {
        const key = await ctx.call("apiKeys.create", createInput(ctx, form));
        return render(ctx, { secret: { name: key.name, plaintextKey: key.plaintextKey, rotated: false } });
      },
    ),
  );
  app.post(
    "/orgs/:organizationId/api-keys/:apiKeyId/rotate",
    formAction(platform, orgContext, render, async (ctx) => {
      const key = await ctx.call("apiKeys.rotate", { apiKeyId: param(ctx.event, "apiKeyId") });
      return render(ctx, { secret: { name: key.name, plaintextKey: key.plaintextKey, rotated: true } });
    }),
  );
  app.post(
    "/orgs/:organizationId/api-keys/:apiKeyId/revoke",
    formAction(platform, orgContext, render, async (ctx) => {
      await ctx.call("apiKeys.revoke", { apiKeyId: param(ctx.event, "apiKeyId") });
      return done(orgPath(ctx, "/api-keys"), "key-revoked");
    }),
  );
}
