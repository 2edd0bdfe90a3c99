import type { Stores } from "../db/stores/index.ts";
import { newId } from "../kernel/ids.ts";
import type { Platform } from "../kernel/platform.ts";
import type { MailMessage } from "./mailer.ts";

/** Tries of one queued message before it is given up on (its error stays on the outbox row). */
export const MAX_ATTEMPTS = 8;
/** The wait after the first failed try; doubled after each further one. */
export const FIRST_RETRY_MS = 30_000;
/**
 * How long a claimed message is left alone by other workers while one tries it: far beyond one SMTP exchange
 * (the transport's timeouts end a stuck one within minutes), so a message is sent twice only when a process
 * stops between the server accepting it and its row being marked sent.
 */
const CLAIM_MS = 5 * 60_000;
const BATCH = 50;

/**
 * Puts a message in the outbox as queued, inside the caller's transaction: it is durable exactly when what it
 * announces is (a crash after the commit leaves it queued, and the next drain on any node sends it).
 */
export async function enqueueMail(stores: Stores, message: MailMessage, now: number): Promise<void> {
  await stores.mail.insert({
    id: newId(),
    toAddress: message.to.toLowerCase(),
    subject: message.subject,
    textBody: message.text,
    htmlBody: message.html ?? null,
    kind: message.kind,
    createdAt: now,
    sentAt: null,
    error: null,
    attempts: 0,
    nextAttemptAt: now,
  });
}

/** The wait before the next try after `attempts` failed ones; null once the message is given up on. */
export const retryDelay = (attempts: number): number | null =>
  attempts >= MAX_ATTEMPTS ? null : FIRST_RETRY_MS * 2 ** (attempts - 1);

/**
 * Sends the queued mail that is due: claims each message (so other nodes skip it), hands it to the transport,
 * marks it sent, or records the failure with the next try (exponential backoff, MAX_ATTEMPTS in all).
 * Returns how many were sent.
 */
export async function deliverDueMail(platform: Platform, now = Date.now()): Promise<number> {
  let sent = 0;
  const due = await platform.db.read((s) => s.mail.due(now, BATCH));
  for (const row of due) {
    if (stateOf(platform).stopped) break;
    const claimed = await platform.db.transaction((s) =>
      s.mail.claim(row.id, row.nextAttemptAt!, now + CLAIM_MS),
    );
    if (!claimed) continue;
    let accepted = false;
    try {
      await platform.mail.deliver({
        to: row.toAddress,
        subject: row.subject,
        text: row.textBody,
        ...(row.htmlBody ? { html: row.htmlBody } : {}),
        kind: row.kind,
      });
      accepted = true;
      await platform.db.transaction((s) => s.mail.markSent(row.id, Date.now()));
      sent++;
    } catch (error) {
      if (accepted) {
        // The server took the message; only recording it failed. Not a failed delivery: the row stays claimed
        // and is sent again only if its claim lapses unmarked (the documented at-least-once window). After a
        // shutdown cut the wait for it short, the database is gone: expected, so not an error.
        if (stateOf(platform).stopped) {
          platform.log.info(
            `mail: ${row.id} was delivered during shutdown; sent again once its claim lapses`,
          );
        } else platform.log.error(`mail: ${row.id} was delivered but could not be marked sent`, error);
        continue;
      }
      const attempts = row.attempts + 1;
      const delay = retryDelay(attempts);
      const reason = error instanceof Error ? error.message : String(error);
      await platform.db.transaction((s) =>
        s.mail.retryLater(row.id, reason, attempts, delay === null ? null : Date.now() + delay),
      );
      platform.log.error(
        `mail: delivery ${attempts} of ${row.id} failed${delay === null ? ", given up" : ""}`,
        error,
      );
      if (delay !== null) scheduleDrain(platform, delay);
    }
  }
  return sent;
}

interface DrainState {
  running: Promise<void> | null;
  again: boolean;
  timer: NodeJS.Timeout | null;
  /** Set by stopMailQueue: no drain or retry starts any more. */
  stopped: boolean;
}
const states = new WeakMap<Platform, DrainState>();

function stateOf(platform: Platform): DrainState {
  let state = states.get(platform);
  if (!state) {
    state = { running: null, again: false, timer: null, stopped: false };
    states.set(platform, state);
  }
  return state;
}

/**
 * Starts delivering due queued mail in the background, now (after a commit that queued some) — one drain at a
 * time per platform; a kick during a drain runs another after it; none once the queue is stopped (the mail stays
 * queued for the next start). Never throws: failures are logged.
 */
export function kickMailQueue(platform: Platform): void {
  const state = stateOf(platform);
  if (state.stopped) return;
  if (state.running) {
    state.again = true;
    return;
  }
  const current = state;
  current.running = deliverDueMail(platform)
    .then(() => undefined)
    .catch((error: unknown) => platform.log.error("mail: queue drain failed", error))
    .finally(() => {
      current.running = null;
      if (current.again) {
        current.again = false;
        kickMailQueue(platform);
      }
    });
}

/** Drains again after `delayMs` (a retry), on a timer that never keeps the process alive. */
function scheduleDrain(platform: Platform, delayMs: number): void {
  const state = stateOf(platform);
  if (state.timer || state.stopped) return;
  state.timer = setTimeout(() => {
    state.timer = null;
    if (!platform.lifecycle.draining) kickMailQueue(platform);
  }, delayMs);
  state.timer.unref();
}

/** Waits for the drain in progress, if any (a graceful stop, tests). */
export async function mailQueueIdle(platform: Platform): Promise<void> {
  while (states.get(platform)?.running) await states.get(platform)!.running;
}

/**
 * Stops the queue before its database closes (a graceful stop, a test's close): no drain or retry starts any more,
 * the drain under way ends after the message it is handing over, which is waited for up to `waitMs` and marked.
 * One cut at that bound stays claimed and is sent again once its claim lapses.
 */
export async function stopMailQueue(platform: Platform, waitMs = 10_000): Promise<void> {
  const state = stateOf(platform);
  state.stopped = true;
  if (state.timer) clearTimeout(state.timer);
  state.timer = null;
  let bound: NodeJS.Timeout | undefined;
  await Promise.race([
    mailQueueIdle(platform),
    new Promise((resolve) => (bound = setTimeout(resolve, waitMs))),
  ]);
  clearTimeout(bound);
}
