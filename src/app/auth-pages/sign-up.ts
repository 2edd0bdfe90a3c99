import type { H3 } from "h3";
import { signUp } from "../../accounts/accounts.ts";
import { MIN_PASSWORD_LENGTH } from "../../accounts/passwords.ts";
import { readSession, startSession } from "../../accounts/session.ts";
import type { Platform } from "../../kernel/platform.ts";
import { requestIdOf } from "../../rest/request-meta.ts";
import { redirect } from "../guard.ts";
import { ACCEPT_PATH } from "../pages/accept.ts";
import { safeReturnPath } from "../return-path.ts";
import { type Flash, field, flash } from "../ui/components.ts";
import { html, type SafeHtml } from "../ui/html.ts";
import {
  failure,
  forbiddenPage,
  readForm,
  requestMeta,
  signedOutPage,
  signedOutPostAllowed,
} from "./forms.ts";

interface Values {
  name: string;
  email: string;
}

function signUpForm(csrf: SafeHtml, next: string, values: Values, message?: Flash): SafeHtml {
  const query = next === "/" ? "" : `?next=${encodeURIComponent(next)}`;
  return html`<h1>Create your account</h1><p class="muted">Build, publish and run websites with your agents.</p>
${flash(message)}<form method="post" action="/signup${query}">${csrf}<input type="hidden" name="next" value="${next}">
${field({ label: "Name", name: "name", value: values.name, required: true, autocomplete: "name" })}
${field({ label: "Email", name: "email", type: "email", value: values.email, required: true, autocomplete: "email" })}
${field({
  label: "Password",
  name: "password",
  type: "password",
  required: true,
  autocomplete: "new-password",
  hint: `At least ${MIN_PASSWORD_LENGTH} characters.`,
})}
<button type="submit" class="primary">Create account</button></form>
<p class="muted">Already have an account? <a href="/signin${query}">Sign in</a></p>`;
}

/** The invitation token of a `next` that returns to an invitation's accept page (the invitee signing up). */
function invitationTokenOf(next: string): string | undefined {
  const url = new URL(next, "http://app.invalid");
  return url.pathname === ACCEPT_PATH ? (url.searchParams.get("token") ?? undefined) : undefined;
}

/**
 * GET/POST /signup: creates the account and its personal organization (operation `accounts.signUp`), then signs
 * the user in. Coming from an invitation link sent to the same address, the account starts verified.
 */
export function registerSignUp(app: H3, platform: Platform): void {
  app.get("/signup", async (event) => {
    const next = safeReturnPath(platform.config.appUrl, event.url.searchParams.get("next"));
    if (await readSession(platform, event.req)) return redirect(next);
    return signedOutPage(platform, event, "Create your account", (csrf) =>
      signUpForm(csrf, next, { name: "", email: "" }),
    );
  });

  app.post("/signup", async (event) => {
    const form = await readForm(platform, event);
    if (!signedOutPostAllowed(platform, event, form)) return forbiddenPage();
    const next = safeReturnPath(
      platform.config.appUrl,
      form.get("next") ?? event.url.searchParams.get("next"),
    );
    const values = { name: form.get("name") ?? "", email: form.get("email") ?? "" };
    const meta = requestMeta(platform, event);
    try {
      const invitationToken = invitationTokenOf(next);
      const user = await signUp(
        platform,
        { ...values, password: form.get("password") ?? "", ...(invitationToken ? { invitationToken } : {}) },
        { ...meta, requestId: requestIdOf(event) },
      );
      return redirect(next, { "set-cookie": await startSession(platform, user.id, meta) });
    } catch (error) {
      const { flash: message, status, headers } = failure(error);
      return signedOutPage(
        platform,
        event,
        "Create your account",
        (csrf) => signUpForm(csrf, next, values, message),
        {
          status,
          headers,
        },
      );
    }
  });
}
