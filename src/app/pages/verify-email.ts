import type { H3 } from "h3";
import { resendVerification, verifyEmail } from "../../accounts/email-verification.ts";
import type { Platform } from "../../kernel/platform.ts";
import { card, emptyState, flash, pageHeader } from "../ui/components.ts";
import { html } from "../ui/html.ts";
import {
  type AppContext,
  appContext,
  done,
  errorFlash,
  type FormFailure,
  formAction,
  handle,
  notice,
  page,
  statusOf,
} from "./context.ts";

/** Where the verification mail links to (`?token=`), and the page that says where verification stands. */
export const VERIFY_PATH = "/account/verify-email";

function statusPage(ctx: AppContext, state: Partial<FormFailure> = {}) {
  const user = ctx.signedIn.user;
  const verified = user.emailVerifiedAt !== null;
  return page(ctx, {
    title: "Email verification",
    status: state.status,
    body: html`${pageHeader("Email verification", user.email)}
${flash(state.flash ?? notice(ctx))}
${card({
  body: verified
    ? emptyState(
        "Your email address is verified",
        "Invitations and access granted to it apply to this account.",
      )
    : emptyState(
        "Waiting for verification",
        "Open the link mailed to this address while signed in. Use the button above to get a new one.",
      ),
})}`,
  });
}

/**
 * The verification link (signed in: the link proves the mailbox, the session the password; signed out, sign-in
 * comes first and returns here), the verification status page, and resending the link (rate limited).
 */
export function registerVerifyEmailPages(app: H3, platform: Platform): void {
  app.get(
    VERIFY_PATH,
    handle(platform, appContext, async (ctx) => {
      const token = ctx.event.url.searchParams.get("token");
      if (token === null) return statusPage(ctx);
      try {
        await verifyEmail(ctx.platform, ctx.signedIn.user, token);
      } catch (error) {
        return statusPage(ctx, { flash: errorFlash(error), status: statusOf(error) });
      }
      return done(VERIFY_PATH, "email-verified");
    }),
  );
  app.post(
    `${VERIFY_PATH}/resend`,
    formAction(platform, appContext, statusPage, async (ctx) => {
      await resendVerification(ctx.platform, ctx.signedIn.user);
      return done(VERIFY_PATH, "verification-sent");
    }),
  );
}
