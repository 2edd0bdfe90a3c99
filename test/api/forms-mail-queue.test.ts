import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSite, closeSandboxPool, starterFiles } from "../../src/framework/index.ts";
import type { BuildResult } from "../../src/framework/types.ts";
import { newId } from "../../src/kernel/ids.ts";
import {
  deliverDueMail,
  FIRST_RETRY_MS,
  MAX_ATTEMPTS,
  mailQueueIdle,
  retryDelay,
} from "../../src/mail/queue.ts";
import { createPlatform } from "../../src/platform.ts";
import { addRecipient } from "../../src/services/forms/recipients.ts";
import { tools } from "../../tools/index.ts";
import { freePort } from "../support/dashboard.ts";
import { dialects } from "../support/databases.ts";
import { publishBuild } from "../support/hosting.ts";
import { useTestPlatform } from "../support/platform.ts";
import { useSmtpSink } from "../support/smtp-sink.ts";

const sink = useSmtpSink();
let starter: BuildResult;
beforeAll(async () => {
  starter = await buildSite({ files: starterFiles("Queued"), organizationId: "org_test", mode: "publish" });
}, 120_000);
afterAll(() => closeSandboxPool());

it("retries with a doubling wait and gives up after MAX_ATTEMPTS tries", () => {
  expect([1, 2, 3].map(retryDelay)).toEqual([FIRST_RETRY_MS, 2 * FIRST_RETRY_MS, 4 * FIRST_RETRY_MS]);
  expect(retryDelay(MAX_ATTEMPTS)).toBeNull();
});

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`form notifications through the mail queue [${dialect.name}]`, () => {
    // SMTP is down for this platform: a loopback port nothing listens on.
    const t = useTestPlatform(dialect.name, async () => ({
      config: { smtpUrl: `smtp://127.0.0.1:${await freePort()}` },
    }));

    it("acknowledges the post without SMTP, keeps the notification queued through failures, and another process sends it once", async () => {
      const website = await t.createWebsite(`Queued ${newId().slice(-6)}`);
      await publishBuild(t.platform, website.id, starter);
      const to = `queue-${newId().slice(-8).toLowerCase()}@example.test`;
      await t.platform.db.transaction(async (s) => {
        const { record } = await addRecipient(s, website.id, to, Date.now());
        await s.forms.confirmRecipient(record.tokenHash, Date.now());
      });

      const posted = await t.app.fetch(
        new Request(`http://${website.slug}.localhost/_service/forms/contact`, {
          method: "POST",
          headers: {
            host: `${website.slug}.localhost`,
            "content-type": "application/json",
            accept: "application/json",
          },
          body: JSON.stringify({
            name: "Queue",
            email: "visitor@example.test",
            message: "hello from the queue",
          }),
        }),
      );
      expect(posted.status).toBe(200);
      await mailQueueIdle(t.platform);
      const queued = async () => (await t.platform.db.read((s) => s.mail.recent(10, to)))[0]!;
      const failed = await queued();
      expect(failed).toMatchObject({ kind: "form_submission", sentAt: null, attempts: 1 });
      expect(failed.error).toBeTruthy();
      expect(failed.nextAttemptAt! - Date.now()).toBeGreaterThan(FIRST_RETRY_MS - 5_000);
      // Not due yet: nothing is tried before its time.
      expect(await deliverDueMail(t.platform)).toBe(0);

      // The process stops; another one (same database, SMTP reachable) starts after the retry is due.
      const next = await createPlatform({
        tools,
        db: t.platform.db,
        blobs: t.platform.blobs,
        config: { ...t.platform.config, smtpUrl: sink.url },
        log: { info: () => undefined, error: () => undefined },
      });
      const later = Date.now() + FIRST_RETRY_MS + 1_000;
      expect(await deliverDueMail(next, later)).toBe(1);
      const mail = await sink.waitFor((m) => m.to.includes(to));
      expect(mail.headers.subject).toContain("New contact submission");
      expect(mail.text).toContain("message: hello from the queue");
      expect(await queued()).toMatchObject({ sentAt: expect.any(Number), nextAttemptAt: null, attempts: 1 });
      // Sent once: a second drain finds nothing.
      expect(await deliverDueMail(next, later)).toBe(0);
      expect(sink.messages.filter((m) => m.to.includes(to))).toHaveLength(1);
    }, 60_000);
  });
}
