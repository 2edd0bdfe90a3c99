import { createHash, randomBytes } from "node:crypto";
import type { FormRecipientRecord } from "../../db/stores/forms.ts";
import type { Stores } from "../../db/stores/index.ts";
import { ApiError } from "../../kernel/errors.ts";
import { isIdShaped, newId } from "../../kernel/ids.ts";
import type { Platform } from "../../kernel/platform.ts";
import { iso, isoOrNull } from "../../kernel/schemas.ts";

/** Where a recipient confirms (`?token=`), on the app host: a page with one button, so a mail scanner's fetch confirms nothing. */
export const CONFIRM_PATH = "/forms/recipients/confirm";
/** Most recipients of one website. */
export const MAX_RECIPIENTS = 20;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export const projectRecipient = (record: FormRecipientRecord) => ({
  id: record.id,
  websiteId: record.websiteId,
  email: record.email,
  status: record.confirmedAt === null ? ("pending" as const) : ("confirmed" as const),
  confirmedAt: isoOrNull(record.confirmedAt),
  createdAt: iso(record.createdAt),
});

/**
 * Adds an address (or renews the link of one still pending) in the caller's unit of work; returns the row and the
 * token to mail, or no token when the address is confirmed already.
 */
export async function addRecipient(stores: Stores, websiteId: string, email: string, now: number) {
  const normalized = email.trim().toLowerCase();
  const existing = await stores.forms.recipients(websiteId);
  if (!existing.some((r) => r.email === normalized) && existing.length >= MAX_RECIPIENTS) {
    throw new ApiError(
      "conflict",
      `email: website '${websiteId}' has ${MAX_RECIPIENTS} recipients already, the most it can have.`,
      {
        suggestion: "Remove one with {{forms.recipients.remove}} first.",
      },
    );
  }
  const token = randomBytes(32).toString("base64url");
  const record = await stores.forms.putRecipient({
    id: newId(),
    websiteId,
    email: normalized,
    tokenHash: hashToken(token),
    confirmedAt: null,
    createdAt: now,
  });
  return { record, token: record.confirmedAt === null ? token : null };
}

export async function sendRecipientConfirmation(
  platform: Platform,
  websiteName: string,
  email: string,
  token: string,
) {
  const link = `${platform.config.appUrl}${CONFIRM_PATH}?token=${token}`;
  await platform.mail.send({
    to: email,
    subject: `Confirm form notifications for ${websiteName}`,
    kind: "form_recipient_confirmation",
    text: [
      `Someone asked Sitewright to mail this address what visitors send to the forms of ${websiteName}.`,
      "",
      "If you want these mails, open this link and confirm:",
      link,
      "",
      "Until you confirm, nothing is sent to you. If you did not expect this, ignore this mail.",
    ].join("\n"),
  });
}

/** Confirms the recipient the token was mailed to; `not_found` for a token that is not (or no longer) valid. */
export async function confirmRecipient(
  stores: Stores,
  token: string,
  now: number,
): Promise<FormRecipientRecord> {
  const record = token.length <= 100 ? await stores.forms.confirmRecipient(hashToken(token), now) : undefined;
  if (!record)
    throw new ApiError(
      "not_found",
      "This confirmation link is not valid: the address may have been removed.",
    );
  return record;
}

export async function loadRecipient(
  stores: Stores,
  websiteId: string,
  id: string,
): Promise<FormRecipientRecord> {
  const record = isIdShaped(id) ? await stores.forms.getRecipient(websiteId, id) : undefined;
  if (!record) {
    throw new ApiError(
      "not_found",
      `recipientId: recipient '${id}' was not found on website '${websiteId}'.`,
      {
        suggestion: "Call {{forms.recipients.list}} to see this website's recipients.",
      },
    );
  }
  return record;
}
