// Email verification in tests: the link the platform mailed, opened by the account's own session.
import type { Platform } from "../../src/kernel/platform.ts";
import type { AppClient } from "./app-client.ts";

const LINK = /https?:\/\/[^\s]+(\/account\/verify-email\?token=[\w-]{43})/;

/** The app path of the newest verification link mailed to `email` (from the outbox every mailer records). */
export async function verificationPath(platform: Platform, email: string): Promise<string> {
  const mail = await platform.db.read((stores) => stores.mail.recent(50, email.toLowerCase()));
  const path = mail.filter((m) => m.kind === "email_verification").map((m) => LINK.exec(m.textBody)?.[1])[0];
  if (!path) throw new Error(`no verification mail to ${email}`);
  return path;
}

/**
 * Verifies the signed-in browser's account as its owner would: opens the verification link mailed to `email`
 * with the browser's session. Throws unless the platform confirms it.
 */
export async function verifyEmail(browser: AppClient, platform: Platform, email: string): Promise<void> {
  const page = await browser.get(await verificationPath(platform, email));
  if (page.location !== "/account/verify-email?done=email-verified") {
    throw new Error(`verifying ${email} failed: ${page.status} ${page.location ?? page.html.slice(0, 300)}`);
  }
}
