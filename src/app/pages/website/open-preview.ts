import type { H3 } from "h3";
import { ApiError, toApiError } from "../../../kernel/errors.ts";
import type { Platform } from "../../../kernel/platform.ts";
import { card, pageHeader } from "../../ui/components.ts";
import { html } from "../../ui/html.ts";
import { csrfField } from "../../ui/layout.ts";
import { appContext, handle, page, param } from "../context.ts";
import type { Website } from "./hub.ts";

/**
 * `/preview/:slug`, where a preview host's sign-in link leads: signed out, the sign-in page first; then the
 * website (read through the pipeline as the user: one out of reach is not found, as one that does not exist)
 * with a button that opens its draft preview as the user. Minting the link is the button's POST, never this GET.
 */
export function registerOpenPreviewPage(app: H3, platform: Platform): void {
  app.get(
    "/preview/:slug",
    handle(platform, appContext, async (ctx) => {
      const slug = param(ctx.event, "slug");
      const notFound = new ApiError("not_found", "This website was not found.");
      const record = await platform.db.read((stores) => stores.websites.getBySlug(slug));
      if (!record) throw notFound;
      // One answer whether it does not exist or is out of the user's reach (even with no grant at all).
      const website: Website = await ctx.call("websites.get", { websiteId: record.id }).catch((error) => {
        const kind = toApiError(error).kind;
        throw kind === "not_found" || kind === "forbidden" ? notFound : error;
      });
      const base = `/orgs/${encodeURIComponent(website.organizationId)}/websites/${encodeURIComponent(website.id)}`;
      const organization = ctx.organizations.find((o) => o.id === website.organizationId);
      return page(
        { ...ctx, ...(organization ? { organization } : {}) },
        {
          title: `Preview ${website.name}`,
          nav: "websites",
          body: html`${pageHeader(`Preview ${website.name}`, "The draft: unpublished source and draft CMS values.")}
${card({
  body: html`<p>The preview opens as you and works for 10 minutes in this browser.</p>
<div class="form-actions"><form method="post" action="${base}/preview">${csrfField(ctx.csrf)}<button type="submit" class="primary" data-testid="preview-draft">Open the preview</button></form>
<a class="btn" href="${base}">Website overview</a></div>`,
})}`,
        },
      );
    }),
  );
}
