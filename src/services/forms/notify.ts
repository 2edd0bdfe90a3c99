import type { FormSubmissionFileRecord, FormSubmissionRecord } from "../../db/stores/forms.ts";
import type { Platform } from "../../kernel/platform.ts";

/** Mails a new submission to the website's confirmed recipients; a failed send is logged, never thrown. */
export async function notifySubmission(
  platform: Platform,
  submission: FormSubmissionRecord,
  files: readonly FormSubmissionFileRecord[],
): Promise<void> {
  const { website, to } = await platform.db.read(async (stores) => ({
    website: await stores.websites.get(submission.websiteId),
    to: await stores.forms.confirmedEmails(submission.websiteId),
  }));
  if (!website || to.length === 0) return;
  const lines = Object.entries(submission.values).map(
    ([name, value]) => `${name}: ${Array.isArray(value) ? value.join(", ") : value}`,
  );
  for (const file of files)
    lines.push(`${file.field}: file ${file.filename} (${file.contentType}, ${file.size} bytes)`);
  const text = `A visitor sent the form '${submission.formName}' on ${website.name}.\n\n${lines.join("\n")}\n\nSubmission ${submission.id}; read and triage it in the dashboard.\n`;
  for (const address of to) {
    try {
      await platform.mail.send({
        to: address,
        subject: `New ${submission.formName} submission on ${website.name}`,
        text,
        kind: "form_submission",
      });
    } catch (error) {
      platform.log.error("forms: notification not sent", error);
    }
  }
}
