import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fsBlobStore, TEMPORARY_FILE_GRACE_MS } from "../../src/blobs/index.ts";
import { newId } from "../../src/kernel/ids.ts";
import {
  CONTENT_GRACE_MS,
  retention,
  runHousekeeping,
  scheduleHousekeeping,
} from "../../src/services/housekeeping.ts";
import { dialects } from "../support/databases.ts";
import { useTestPlatform } from "../support/platform.ts";

const DAY = 24 * 60 * 60 * 1000;
const sha = (text: string) => createHash("sha256").update(text).digest("hex");

/** A temporary file as a put killed mid-write leaves it in `root`, last modified `ageMs` before `now`. */
function leftover(root: string, ageMs: number, now = Date.now()): string {
  const name = sha(`${Math.random()}`);
  mkdirSync(join(root, name.slice(0, 2)), { recursive: true });
  const path = join(root, name.slice(0, 2), `.${name}.a1b2c3d4e5f6.tmp`);
  writeFileSync(path, "partial");
  const when = new Date(now - ageMs);
  utimesSync(path, when, when);
  return path;
}

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`housekeeping [${dialect.name}]`, () => {
    const t = useTestPlatform(dialect.name);

    it("deletes only what has outlived its purpose, and is idempotent", async () => {
      const now = Date.now();
      const userId = t.local.owner.id;
      const session = (id: string, expiresAt: number) => ({
        id,
        userId,
        createdAt: now - DAY,
        expiresAt,
        lastSeenAt: now - DAY,
        ip: "127.0.0.1",
        userAgent: "test",
      });
      const code = (id: string, expiresAt: number) => ({
        id,
        grantId: "g",
        clientId: "c",
        redirectUri: "http://127.0.0.1/cb",
        codeChallenge: "x",
        resource: "r",
        scope: "mcp:read",
        createdAt: expiresAt - 600_000,
        expiresAt,
        usedAt: null,
        familyId: null,
      });
      const token = (id: string, expiresAt: number) => ({
        id,
        kind: "refresh" as const,
        grantId: "g",
        familyId: "f",
        clientId: "c",
        resource: "r",
        scope: "mcp:read",
        createdAt: expiresAt - DAY,
        expiresAt,
        usedAt: null,
        revokedAt: null,
      });
      const mail = (id: string, createdAt: number) => ({
        id,
        toAddress: "a@example.test",
        subject: "s",
        textBody: "t",
        htmlBody: null,
        kind: "test",
        createdAt,
        sentAt: createdAt,
        error: null,
      });
      const orphan = "an orphan text nobody references";
      const ids = { old: newId(), fresh: newId() };
      await t.platform.db.transaction(async (s) => {
        await s.sessions.insert(session(`expired-${ids.old}`, now - 1000));
        await s.sessions.insert(session(`live-${ids.fresh}`, now + DAY));
        await s.sessions.insertReset({
          id: `r-old-${ids.old}`,
          userId,
          createdAt: now - 3 * DAY,
          expiresAt: now - 2 * DAY,
          usedAt: null,
        });
        await s.sessions.insertReset({
          id: `r-new-${ids.fresh}`,
          userId,
          createdAt: now,
          expiresAt: now + 3_600_000,
          usedAt: null,
        });
        await s.emailVerifications.insert({
          id: `v-old-${ids.old}`,
          userId,
          email: "owner@localhost",
          createdAt: now - 4 * DAY,
          expiresAt: now - 3 * DAY,
          usedAt: null,
        });
        await s.emailVerifications.insert({
          id: `v-new-${ids.fresh}`,
          userId,
          email: "owner@localhost",
          createdAt: now,
          expiresAt: now + DAY,
          usedAt: null,
        });
        await s.oauth.insertCode(code(`c-old-${ids.old}`, now - retention.oauthAfterExpiry - 1000));
        await s.oauth.insertCode(code(`c-recent-${ids.fresh}`, now - DAY)); // expired, but kept to catch replays
        await s.oauth.insertToken(token(`t-old-${ids.old}`, now - retention.oauthAfterExpiry - 1000));
        await s.oauth.insertToken(token(`t-live-${ids.fresh}`, now + DAY));
        await s.mail.insert(mail(`m-old-${ids.old}`, now - retention.mail - 1000));
        await s.mail.insert(mail(`m-new-${ids.fresh}`, now));
        await s.sourceFiles.putContent(
          { sha256: sha(orphan), content: orphan, size: orphan.length },
          now - CONTENT_GRACE_MS - 1000,
        );
      });
      await t.platform.db.transaction((s) =>
        s.idempotency.claim(`idem-${ids.old}`, "h", now - 2 * DAY, 1000),
      );
      await t.platform.db.transaction((s) => s.idempotency.claim(`idem-${ids.fresh}`, "h", now, DAY));

      const report = await runHousekeeping(t.platform, now);
      expect(report).toMatchObject({
        sessions: 1,
        passwordResets: 1,
        emailVerifications: 1,
        oauthCodes: 1,
        oauthTokens: 1,
        idempotencyRecords: 1,
        mail: 1,
      });
      expect(report.sourceContents).toBeGreaterThanOrEqual(1);
      await t.platform.db.read(async (s) => {
        expect(await s.sessions.get(`expired-${ids.old}`)).toBeUndefined();
        expect(await s.sessions.get(`live-${ids.fresh}`)).toBeDefined();
        expect(await s.sessions.getReset(`r-new-${ids.fresh}`)).toBeDefined();
        expect(await s.emailVerifications.get(`v-old-${ids.old}`)).toBeUndefined();
        expect(await s.emailVerifications.get(`v-new-${ids.fresh}`)).toBeDefined();
        expect(await s.oauth.getCode(`c-old-${ids.old}`)).toBeUndefined();
        expect(await s.oauth.getCode(`c-recent-${ids.fresh}`)).toBeDefined();
        expect(await s.oauth.getToken(`t-live-${ids.fresh}`)).toBeDefined();
        expect((await s.mail.recent(10)).map((m) => m.id)).toContain(`m-new-${ids.fresh}`);
        expect(await s.sourceFiles.getContent(sha(orphan))).toBeUndefined();
      });
      // The starter's texts are referenced by websites' drafts: never swept.
      const site = await t.createWebsite(`Housekeeping ${dialect.name}`);
      const files = await t.call("websiteSourceCode.files.list", { websiteId: site.id });
      const again = await runHousekeeping(t.platform, now + 2 * CONTENT_GRACE_MS);
      expect(again).toMatchObject({ sessions: 0, passwordResets: 0, oauthCodes: 0, oauthTokens: 0, mail: 0 });
      const read = await t.call("websiteSourceCode.files.get", {
        websiteId: site.id,
        path: files.items[0]!.path,
      });
      expect(read.content.length).toBeGreaterThan(0);
    });

    it("sweeps temporary blob files of interrupted writes older than the grace period, at start and in each run", async () => {
      const root = mkdtempSync(join(tmpdir(), "sitewright-housekeeping-blobs-"));
      try {
        const platform = { ...t.platform, blobs: fsBlobStore(root) };
        const now = Date.now();
        const stale = [leftover(root, TEMPORARY_FILE_GRACE_MS + 1000, now), leftover(root, 3 * DAY, now)];
        const fresh = leftover(root, 60_000, now);
        const report = await runHousekeeping(platform, now);
        expect(report.blobTemporaryFiles).toBe(2);
        for (const path of stale) expect(existsSync(path)).toBe(false);
        expect(existsSync(fresh)).toBe(true);
        // Once it is older than the grace period, the next run takes it.
        expect((await runHousekeeping(platform, now + TEMPORARY_FILE_GRACE_MS)).blobTemporaryFiles).toBe(1);
        expect(existsSync(fresh)).toBe(false);

        // At start: scheduling housekeeping sweeps at once, long before its first full run.
        const atStart = leftover(root, 2 * TEMPORARY_FILE_GRACE_MS);
        const stop = scheduleHousekeeping(platform, DAY, DAY);
        try {
          for (let i = 0; existsSync(atStart); i++) {
            if (i > 500) throw new Error("the sweep at start did not run within 10 s");
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        } finally {
          stop();
        }
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  });
}
