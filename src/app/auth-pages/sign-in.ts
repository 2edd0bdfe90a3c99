import type { H3 } from "h3";
import { signIn } from "../../accounts/accounts.ts";
import { sameOriginRequest } from "../../accounts/csrf.ts";
import { checkCsrf, endSession, readSession, startSession } from "../../accounts/session.ts";
import type { Platform } from "../../kernel/platform.ts";
import { redirect } from "../guard.ts";
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

function signInForm(csrf: SafeHtml, next: string, email = "", message?: Flash): SafeHtml {
  const query = next === "/" ? "" : `?next=${encodeURIComponent(next)}`;
  return html`<h1>Sign in</h1><p class="muted">Welcome back to Sitewright.</p>${flash(message)}
<form method="post" action="/signin${query}">${csrf}<input type="hidden" name="next" value="${next}">
${field({ label: "Email", name: "email", type: "email", value: email, required: true, autocomplete: "username" })}
${field({ label: "Password", name: "password", type: "password", required: true, autocomplete: "current-password" })}
<button type="submit" class="primary">Sign in</button></form>
<p class="muted"><a href="/password/forgot">Forgot your password?</a> · New here? <a href="/signup${query}">Create an account</a></p>`;
}

/** GET/POST /signin (`?next=` a same-origin path to return to) and POST /signout. */
export function registerSignIn(app: H3, platform: Platform): void {
  app.get("/signin", async (event) => {
    const next = safeReturnPath(platform.config.appUrl, event.url.searchParams.get("next"));
    if (await readSession(platform, event.req)) return redirect(next);
    const notice =
      event.url.searchParams.get("reset") === "done"
        ? ({ kind: "success", message: "Your password was changed. Sign in with the new one." } as const)
        : undefined;
    return signedOutPage(platform, event, "Sign in", (csrf) => signInForm(csrf, next, "", notice));
  });

  app.post("/signin", async (event) => {
    const form = await readForm(platform, event);
    if (!signedOutPostAllowed(platform, event, form)) return forbiddenPage();
    const next = safeReturnPath(
      platform.config.appUrl,
      form.get("next") ?? event.url.searchParams.get("next"),
    );
    const email = form.get("email") ?? "";
    const meta = requestMeta(platform, event);
    try {
      const user = await signIn(platform, { email, password: form.get("password") ?? "" }, meta);
      const cookie = await startSession(platform, user.id, meta);
      return redirect(next, { "set-cookie": cookie });
    } catch (error) {
      const { flash: message, status, headers } = failure(error);
      return signedOutPage(platform, event, "Sign in", (csrf) => signInForm(csrf, next, email, message), {
        status,
        headers,
      });
    }
  });

  app.post("/signout", async (event) => {
    const signedIn = await readSession(platform, event.req);
    if (!signedIn) return redirect("/signin");
    const form = await readForm(platform, event);
    if (!sameOriginRequest(platform, event.req) || !checkCsrf(signedIn, form.get("csrf"))) {
      return forbiddenPage(signedIn);
    }
    return redirect("/signin", { "set-cookie": await endSession(platform, event.req) });
  });
}
