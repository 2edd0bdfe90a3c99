import type { FormSubmissionFileRecord, FormSubmissionRecord } from "../../db/stores/forms.ts";
import type { Stores } from "../../db/stores/index.ts";
import { enqueueMail } from "../../mail/queue.ts";

/**
 * Queues the mail of a new submission to the website's confirmed recipients, in the transaction that stores the
 * submission: once a visitor's post is acknowledged its notifications are in the outbox, and the mail queue
 * (src/mail/queue.ts) delivers them off the request path, with retries. Returns how many were queued.
 */
export async function queueNotifications(
  stores: Stores,
  submission: FormSubmissionRecord,
  files: readonly FormSubmissionFileRecord[],
  now: number,
): Promise<number> {
  const website = await stores.websites.get(submission.websiteId);
  const to = await stores.forms.confirmedEmails(submission.websiteId);
  if (!website || to.length === 0) return 0;
  const lines = Object.entries(submission.values).map(
    ([name, value]) => `${name}: ${Array.isArray(value) ? value.join(", ") : value}`,
  );
  for (const file of files)
    lines.push(`${file.field}: file ${file.filename} (${file.contentType}, ${file.size} bytes)`);
  const text = `A visitor sent the form '${submission.formName}' on ${website.name}.\n\n${lines.join("\n")}\n\nSubmission ${submission.id}; read and triage it in the dashboard.\n`;
  for (const address of to) {
    await enqueueMail(
      stores,
      {
        to: address,
        subject: `New ${submission.formName} submission on ${website.name}`,
        text,
        kind: "form_submission",
      },
      now,
    );
  }
  return to.length;
}
