import type { H3 } from "h3";
import type { Platform } from "../../../kernel/platform.ts";
import {
  badge,
  card,
  copyField,
  emptyState,
  type Flash,
  field,
  postButton,
  table,
  when,
} from "../../ui/components.ts";
import { html, type SafeHtml } from "../../ui/html.ts";
import { csrfField } from "../../ui/layout.ts";
import { done, formAction, handle, param } from "../context.ts";
import { type WebsiteContext, websiteContext, websitePage } from "./hub.ts";

/** A custom domain as the Domains operations return it. */
interface Domain {
  id: string;
  hostname: string;
  unicodeHostname: string;
  kind: "apex" | "subdomain" | "www";
  primary: boolean;
  status: "pending" | "verified" | "unverified";
  served: boolean;
  servedUntil: string | null;
  url: string;
  records: { purpose: string; type: string; name: string; value: string; status: string; found: string[] }[];
  lastCheckedAt: string | null;
}

const statusTone = { verified: "success", pending: "warn", unverified: "danger" } as const;
const recordTone = { found: "success", missing: "danger", mismatch: "danger", unchecked: "neutral" } as const;

/** The records one domain needs, each with copy buttons for its name and value and what the last check found. */
function records(domain: Domain, index: number): SafeHtml {
  return table(
    ["Type", "Name", "Value", "Check"],
    domain.records.map((r, i) => [
      html`<code>${r.type}</code>`,
      copyField(`d${index}-r${i}-name`, r.name),
      copyField(`d${index}-r${i}-value`, r.value),
      html`<span data-testid="record-status">${badge(r.status, recordTone[r.status as keyof typeof recordTone] ?? "neutral")}</span>${
        r.status === "mismatch" ? html`<div class="cell-sub">Found ${r.found.join(", ")}</div>` : ""
      }`,
    ]),
  );
}

function domainCard(ctx: WebsiteContext, domain: Domain, index: number): SafeHtml {
  const action = (rest: string) => ctx.path(`/domains/${encodeURIComponent(domain.id)}${rest}`);
  const canWrite = ctx.can("domains.add");
  const actions = canWrite
    ? html`<div class="form-actions">${postButton({ action: action("/verify"), csrf: ctx.csrf, label: "Verify now" })}${
        domain.served && !domain.primary && domain.kind !== "www"
          ? postButton({ action: action("/primary"), csrf: ctx.csrf, label: "Make primary", tone: "primary" })
          : ""
      }${domain.kind !== "www" ? postButton({ action: action("/remove"), csrf: ctx.csrf, label: "Remove", tone: "danger" }) : ""}</div>`
    : html``;
  return html`<div data-testid="domain" data-hostname="${domain.hostname}">${card({
    title: domain.unicodeHostname,
    actions: html`${badge(domain.status, statusTone[domain.status])}${domain.primary ? html` ${badge("primary", "accent")}` : ""}`,
    description: html`${domain.kind === "www" ? "Redirects to its apex or the primary domain. " : ""}${
      domain.servedUntil ? html`Served until ${when(domain.servedUntil)} unless verified again. ` : ""
    }Last checked ${domain.lastCheckedAt ? when(domain.lastCheckedAt) : html`never`}.`,
    flush: true,
    body: records(domain, index),
    footer: actions,
  })}</div>`;
}

async function render(
  ctx: WebsiteContext,
  state: { flash?: Flash; status?: number } = {},
  form?: URLSearchParams,
) {
  const listed = await ctx.call("domains.list", { websiteId: ctx.website.id, limit: 100 });
  const items = listed.items as Domain[];
  const add = ctx.can("domains.add")
    ? card({
        title: "Add a custom domain",
        description:
          "An apex (example.com) also gets www.example.com redirecting to it. Create the records shown, then verify.",
        body: html`<form method="post" action="${ctx.path("/domains")}">${csrfField(ctx.csrf)}${field({
          label: "Domain",
          name: "hostname",
          placeholder: "shop.example.com",
          required: true,
          value: form?.get("hostname") ?? "",
        })}<div class="form-actions"><button type="submit" class="primary">Add domain</button></div></form>`,
      })
    : html``;
  return websitePage(ctx, {
    tab: "domains",
    title: "Domains",
    ...state,
    body: html`${add}${
      items.length
        ? items.map((d, i) => domainCard(ctx, d, i))
        : card({
            title: "Custom domains",
            body: emptyState("No custom domains", `The website is served at ${ctx.website.url}.`),
          })
    }`,
  });
}

/** The domains section: the website's custom domains with their DNS records, verification, primary and removal. */
export function registerDomainPages(app: H3, platform: Platform): void {
  const path = "/orgs/:organizationId/websites/:websiteId/domains";
  app.get(
    path,
    handle(platform, websiteContext, (ctx) => render(ctx)),
  );
  const onError = (ctx: WebsiteContext, failure: { flash: Flash; status: number }, form: URLSearchParams) =>
    render(ctx, failure, form);
  app.post(
    path,
    formAction(platform, websiteContext, onError, async (ctx, form) => {
      await ctx.call("domains.add", { websiteId: ctx.website.id, hostname: form.get("hostname") ?? "" });
      return done(ctx.path("/domains"), "domain-added");
    }),
  );
  const act = (
    rest: string,
    operationId: "domains.verify" | "domains.setPrimary" | "domains.remove",
    code: string,
  ) =>
    app.post(
      `${path}/:domainId${rest}`,
      formAction(platform, websiteContext, onError, async (ctx) => {
        const domainId = param(ctx.event, "domainId");
        await ctx.call(operationId, { websiteId: ctx.website.id, domainId });
        return done(ctx.path("/domains"), code);
      }),
    );
  act("/verify", "domains.verify", "domain-checked");
  act("/primary", "domains.setPrimary", "domain-primary");
  act("/remove", "domains.remove", "domain-removed");
}
