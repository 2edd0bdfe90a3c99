import { afterEach, describe, expect, it, vi } from "vitest";
import { newId } from "../../src/kernel/ids.ts";
import { enqueueMail, kickMailQueue, mailQueueIdle } from "../../src/mail/queue.ts";
import { closePlatform } from "../../src/platform.ts";
import { dialects } from "../support/databases.ts";
import { createTestPlatform, type TestPlatform } from "../support/platform.ts";
import { useSmtpSink } from "../support/smtp-sink.ts";

// Closing a platform while its mail queue hands a message to SMTP: the delivery is marked before the database
// closes, and nothing is logged as an error.
const sink = useSmtpSink();

/** Lets pending callbacks and I/O run, without waiting for any duration. */
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`closing with a mail delivery in flight [${dialect.name}]`, () => {
    let t: TestPlatform | undefined;
    let errors: string[];
    let infos: string[];
    let release: (() => void) | undefined;
    afterEach(async () => {
      release?.();
      await t?.close();
      t = undefined;
    });

    /** A platform mailing through the sink, with one queued message whose delivery waits on the sink. */
    const inFlight = async () => {
      t = await createTestPlatform(dialect.name, { config: { smtpUrl: sink.url } });
      errors = [];
      infos = [];
      t.platform.log = { info: (message) => infos.push(message), error: (message) => errors.push(message) };
      const to = `closing-${newId().slice(-8).toLowerCase()}@example.test`;
      release = sink.hold();
      await t.platform.db.transaction((s) =>
        enqueueMail(s, { to, subject: "In flight", text: "hello", kind: "notice" }, Date.now()),
      );
      kickMailQueue(t.platform);
      await sink.waitFor((m) => m.to.includes(to));
      const db = t.platform.db;
      const row = async (subject = "In flight") =>
        (await db.read((s) => s.mail.recent(10, to))).find((r) => r.subject === subject)!;
      return { to, row };
    };

    it("waits for the delivery, marks it sent, and starts no drain afterwards", async () => {
      const { to, row } = await inFlight();
      let closed = false;
      const closing = closePlatform(t!.platform).then(() => {
        closed = true;
      });
      await turns(20);
      expect(closed).toBe(false);
      release!();
      await closing;
      expect(await row()).toMatchObject({ sentAt: expect.any(Number), error: null });
      // Stopped: mail queued now stays in the outbox for the next start.
      await t!.platform.db.transaction((s) =>
        enqueueMail(s, { to, subject: "After close", text: "later", kind: "notice" }, Date.now()),
      );
      kickMailQueue(t!.platform);
      await mailQueueIdle(t!.platform);
      expect(await row("After close")).toMatchObject({ sentAt: null, attempts: 0 });
      expect(sink.messages.filter((m) => m.to.includes(to))).toHaveLength(1);
      expect(errors).toEqual([]);
    });

    it("stops waiting at its bound: the delivery stays claimed for a retry, and no error is logged", async () => {
      const { row } = await inFlight();
      await closePlatform(t!.platform, 0);
      expect(await row()).toMatchObject({ sentAt: null, error: null, attempts: 0 });
      expect((await row()).nextAttemptAt).toBeGreaterThan(Date.now());
      const unmarked = t!;
      t = undefined;
      await unmarked.close(0);
      release!();
      // The sink's reply now reaches the cut delivery, which cannot mark its row on the closed database.
      await vi.waitFor(() => expect(infos.some((m) => m.includes("delivered during shutdown"))).toBe(true), {
        timeout: 10_000,
      });
      expect(errors).toEqual([]);
    });
  });
}
