import type { H3 } from "h3";
import { renderPlatformPage } from "../../hosting/pages.ts";
import { toApiError } from "../../kernel/errors.ts";
import type { Platform } from "../../kernel/platform.ts";
import { bodyLimit, readUrlEncoded } from "../../rest/body.ts";
import { CONFIRM_PATH, confirmRecipient } from "../../services/forms/recipients.ts";
import { html } from "../ui/html.ts";

const HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
};

/** A small page that stands alone: the recipient may have no account. */
function pageResponse(status: number, title: string, text: string, form = ""): Response {
  const page = renderPlatformPage({ status, code: "Form notifications", title, paragraphs: [text] });
  return new Response(form ? page.replace("<footer>", `${form}<footer>`) : page, {
    status,
    headers: HEADERS,
  });
}

/**
 * The link mailed to a new notification recipient. Opening it shows one button; only the button's POST confirms,
 * so a mail scanner fetching links confirms nothing. The token is the only credential: no session is needed.
 */
export function registerFormRecipientPages(app: H3, platform: Platform): void {
  app.get(CONFIRM_PATH, (event) => {
    const token = event.url.searchParams.get("token") ?? "";
    const form = html`<form method="post" action="${CONFIRM_PATH}"><input type="hidden" name="token" value="${token}"><p class="action"><button class="button" type="submit">Confirm</button></p></form>`;
    return pageResponse(
      200,
      "Receive form submissions by mail?",
      "Confirm to be mailed what visitors send to this website's forms.",
      form.value,
    );
  });
  app.post(CONFIRM_PATH, async (event) => {
    try {
      const fields = await readUrlEncoded(event.req, bodyLimit(platform.config, "form"));
      const token = fields.get("token") ?? "";
      const record = await platform.db.transaction((stores) => confirmRecipient(stores, token, Date.now()));
      return pageResponse(200, "Confirmed", `${record.email} will be mailed new form submissions.`);
    } catch (error) {
      const apiError = toApiError(error);
      return pageResponse(apiError.status, "Not confirmed", apiError.message);
    }
  });
}
