import type { H3 } from "h3";
import { checkResetToken, requestPasswordReset, resetPassword } from "../../accounts/password-reset.ts";
import { MIN_PASSWORD_LENGTH } from "../../accounts/passwords.ts";
import type { Platform } from "../../kernel/platform.ts";
import { redirect } from "../guard.ts";
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

function forgotForm(csrf: SafeHtml, email = "", message?: Flash): SafeHtml {
  return html`<h1>Reset your password</h1>
<p class="muted">Enter the email of your account and we will send you a link to choose a new password.</p>
${flash(message)}<form method="post" action="/password/forgot">${csrf}
${field({ label: "Email", name: "email", type: "email", value: email, required: true, autocomplete: "email" })}
<button type="submit" class="primary">Send reset link</button></form>
<p class="muted"><a href="/signin">Back to sign in</a></p>`;
}

function resetForm(csrf: SafeHtml, token: string, message?: Flash): SafeHtml {
  return html`<h1>Choose a new password</h1>${flash(message)}
<form method="post" action="/password/reset">${csrf}<input type="hidden" name="token" value="${token}">
${field({
  label: "New password",
  name: "password",
  type: "password",
  required: true,
  autocomplete: "new-password",
  hint: `At least ${MIN_PASSWORD_LENGTH} characters. Every signed-in session will be signed out.`,
})}
<button type="submit" class="primary">Set new password</button></form>`;
}

const invalidLinkBody = (message: Flash) =>
  html`<h1>Reset link not valid</h1>${flash(message)}<p><a href="/password/forgot">Ask for a new link</a></p>`;

/** GET/POST /password/forgot and /password/reset?token=…: password reset through an emailed single-use link. */
export function registerPasswordReset(app: H3, platform: Platform): void {
  app.get("/password/forgot", (event) =>
    signedOutPage(platform, event, "Reset your password", (csrf) => forgotForm(csrf)),
  );

  app.post("/password/forgot", async (event) => {
    const form = await readForm(platform, event);
    if (!signedOutPostAllowed(platform, event, form)) return forbiddenPage();
    const email = form.get("email") ?? "";
    try {
      await requestPasswordReset(platform, email, requestMeta(platform, event));
    } catch (error) {
      const { flash: message, status, headers } = failure(error);
      return signedOutPage(
        platform,
        event,
        "Reset your password",
        (csrf) => forgotForm(csrf, email, message),
        {
          status,
          headers,
        },
      );
    }
    const sent: Flash = {
      kind: "success",
      message: "If an account uses this email, a reset link is on its way.",
      suggestion: "The link works once, for one hour. Check your spam folder if it does not arrive.",
    };
    return signedOutPage(platform, event, "Reset your password", (csrf) => forgotForm(csrf, "", sent));
  });

  app.get("/password/reset", async (event) => {
    const token = event.url.searchParams.get("token") ?? "";
    try {
      await checkResetToken(platform, token);
    } catch (error) {
      const { flash: message, status } = failure(error);
      return signedOutPage(platform, event, "Reset link not valid", () => invalidLinkBody(message), {
        status,
      });
    }
    return signedOutPage(platform, event, "Choose a new password", (csrf) => resetForm(csrf, token));
  });

  app.post("/password/reset", async (event) => {
    const form = await readForm(platform, event);
    if (!signedOutPostAllowed(platform, event, form)) return forbiddenPage();
    const token = form.get("token") ?? "";
    try {
      await resetPassword(platform, token, form.get("password") ?? "");
    } catch (error) {
      const { flash: message, status } = failure(error);
      if (status === 404) {
        return signedOutPage(platform, event, "Reset link not valid", () => invalidLinkBody(message), {
          status,
        });
      }
      return signedOutPage(
        platform,
        event,
        "Choose a new password",
        (csrf) => resetForm(csrf, token, message),
        {
          status,
        },
      );
    }
    return redirect("/signin?reset=done");
  });
}
