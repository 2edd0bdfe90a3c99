import type { Database } from "../db/database.ts";
import { newId } from "../kernel/ids.ts";

/** A message the platform sends: invitations, password resets, notices. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** What the mail is for, e.g. `invitation`, `password_reset` (shown in the dev outbox). */
  kind: string;
}

/** Sends mail. Every message is first recorded in the outbox (the dashboard shows it in dev). */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Hands a message already in the outbox (queued mail) to the transport; throws when delivery fails. */
  deliver(message: MailMessage): Promise<void>;
}

/** How recorded mail leaves the machine: SMTP in production, the console in dev. */
export interface MailTransport {
  deliver(message: MailMessage & { from: string }): Promise<void>;
}

export interface MailerOptions {
  db: Database;
  from: string;
  transport: MailTransport;
}

/**
 * Records each message in the outbox, then hands it to the transport. A delivery failure is recorded on the
 * outbox row and thrown; callers send after their transaction committed, so a failed send never undoes it.
 */
export function createMailer({ db, from, transport }: MailerOptions): Mailer {
  return {
    async send(message) {
      const id = newId();
      await db.transaction((stores) =>
        stores.mail.insert({
          id,
          toAddress: message.to.toLowerCase(),
          subject: message.subject,
          textBody: message.text,
          htmlBody: message.html ?? null,
          kind: message.kind,
          createdAt: Date.now(),
          sentAt: null,
          error: null,
        }),
      );
      try {
        await transport.deliver({ ...message, from });
        await db.transaction((stores) => stores.mail.markSent(id, Date.now()));
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        await db.transaction((stores) => stores.mail.markFailed(id, reason));
        throw error;
      }
    },
    deliver: (message) => transport.deliver({ ...message, from }),
  };
}

/** Dev transport: prints each message to the console (the dashboard's outbox shows it too). */
export function consoleTransport(log: { info(message: string): void }): MailTransport {
  return {
    async deliver(message) {
      log.info(`\n--- mail to ${message.to}: ${message.subject}\n${message.text}\n---`);
    },
  };
}

/** Production transport: SMTP through nodemailer, e.g. `smtp://user:pass@smtp.example.com:587`. */
export async function smtpTransport(url: string): Promise<MailTransport> {
  const nodemailer = await import("nodemailer");
  // Short timeouts: a stuck exchange fails (and is retried) long before the queue's 5-minute claim lapses.
  const transporter = nodemailer.createTransport({
    url,
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
  });
  return {
    async deliver(message) {
      await transporter.sendMail({
        from: message.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
      });
    },
  };
}
