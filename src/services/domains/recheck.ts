import type { Platform } from "../../kernel/platform.ts";
import { ownerOf } from "./domains.ts";
import { recordVerification, verifyDomain } from "./verify.ts";

/** Domains re-verified per housekeeping run, and how many at once (each waits on DNS, not on the database). */
const BATCH = 100;
const PARALLEL = 8;

/**
 * Re-verifies the domains not checked for `recheckMs` (oldest check first): a verified domain whose ownership
 * record is gone becomes unverified and is served until the grace period ends; a pending one whose records
 * appeared becomes verified. DNS is asked outside any unit of work; each result is recorded in its own, on the
 * row as it is then (a domain removed meanwhile is skipped). Returns how many were checked.
 */
export async function recheckDomains(platform: Platform, now = Date.now()): Promise<number> {
  const due = await platform.db.read((s) =>
    s.domains.dueForCheck(now - platform.config.domains.recheckMs, BATCH),
  );
  let checked = 0;
  const queue = [...due];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const record = next;
      const owner = await platform.db.read((s) => ownerOf(s, record));
      const result = await verifyDomain(platform.config, record, owner);
      await platform.db.transaction(async (s) => {
        const current = await s.domains.get(record.websiteId, record.id);
        if (current) await recordVerification(s, current, result, now);
      });
      checked++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, queue.length) }, worker));
  return checked;
}
