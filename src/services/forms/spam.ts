import { createHmac, timingSafeEqual } from "node:crypto";
import type { FormValues, SpamSensitivity } from "../../db/schema/forms.ts";

/**
 * Spam checks of a form submission. A submission that fails them is stored in state `spam`, never dropped, so a
 * false positive can be recovered; the visitor gets the same answer either way, so a bot learns nothing.
 *
 * The start-time token is `<issued, base 36 seconds>.<signature>`: the framework adds a hidden field to every form
 * and a small script fills it from `GET /_service/forms/_token` when the page loads; a submission sent sooner
 * than `MIN_FILL_MS` after that, or with a forged token, is a bot's.
 */

/** The least time a person takes to fill a form. */
export const MIN_FILL_MS = 3_000;
/** A token older than this counts as absent (a page left open for a day). */
const TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
const CONTEXT = "sitewright-form-start-v1";

const sign = (secret: Buffer, websiteId: string, issued36: string) =>
  createHmac("sha256", secret).update(`${CONTEXT}.${websiteId}.${issued36}`).digest().subarray(0, 16);

/** A start-time token for a page of `websiteId` loaded at `now`. */
export function mintFormToken(secret: Buffer, websiteId: string, now = Date.now()): string {
  const issued36 = Math.floor(now / 1000).toString(36);
  return `${issued36}.${sign(secret, websiteId, issued36).toString("base64url")}`;
}

export type TokenCheck = "ok" | "missing" | "forged" | "too_fast";

/** What a submitted token says; the issue time has second precision, so "too fast" allows that second. */
export function checkFormToken(
  secret: Buffer,
  websiteId: string,
  token: string,
  now = Date.now(),
): TokenCheck {
  if (!token) return "missing";
  const [issued36, signature, ...rest] = token.split(".");
  if (rest.length > 0 || !issued36 || !signature || !/^[0-9a-z]{1,10}$/.test(issued36)) return "forged";
  const given = Buffer.from(signature, "base64url");
  const expected = sign(secret, websiteId, issued36);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "forged";
  const issuedAt = Number.parseInt(issued36, 36) * 1000;
  if (now - issuedAt > TOKEN_TTL_MS) return "missing";
  return now - issuedAt + 1000 < MIN_FILL_MS ? "too_fast" : "ok";
}

const SPAM_WORDS =
  /\b(viagra|cialis|casino|porn|crypto ?currency|bitcoin|forex|payday loans?|seo services|backlinks?|escort|replica watches|work from home|click here|guaranteed rankings?)\b/gi;
const LINK = /\bhttps?:\/\/|\bwww\./gi;
const MARKUP_LINK = /\[url=|<a\s+href/i;

/** Score of what the values say: links, link markup, words spam is made of, shouting. */
export function contentScore(values: FormValues): { score: number; reasons: string[] } {
  const text = Object.values(values).flat().join("\n");
  const reasons: string[] = [];
  let score = 0;
  const links = text.match(LINK)?.length ?? 0;
  if (links > 1) {
    score += Math.min(links - 1, 3);
    reasons.push(`${links} links`);
  }
  if (MARKUP_LINK.test(text)) {
    score += 2;
    reasons.push("link markup");
  }
  const words = new Set((text.match(SPAM_WORDS) ?? []).map((word) => word.toLowerCase()));
  if (words.size > 0) {
    score += Math.min(words.size * 2, 4);
    reasons.push(`spam words: ${[...words].join(", ")}`);
  }
  const letters = text.replace(/[^A-Za-z]/g, "");
  if (letters.length >= 20 && letters.replace(/[^A-Z]/g, "").length / letters.length > 0.7) {
    score += 1;
    reasons.push("mostly capitals");
  }
  return { score, reasons };
}

/** The content score from which a submission is spam, by sensitivity. */
const THRESHOLD: Record<Exclude<SpamSensitivity, "off">, number> = { low: 5, medium: 3, high: 2 };

/** Why a submission is spam (empty when it is not). */
export function spamReasons(
  input: { honeypot: string; token: TokenCheck; values: FormValues },
  sensitivity: SpamSensitivity,
): string[] {
  if (sensitivity === "off") return [];
  const reasons: string[] = [];
  if (input.honeypot.trim() !== "") reasons.push("the hidden honeypot field was filled");
  if (input.token === "forged") reasons.push("the form's start-time token is not one this site issued");
  if (input.token === "too_fast")
    reasons.push(`sent less than ${MIN_FILL_MS / 1000} seconds after the page loaded`);
  const content = contentScore(input.values);
  // A missing token (no script ran) alone is not spam; it adds to the content's score.
  const score = content.score + (input.token === "missing" ? 1 : 0);
  if (score >= THRESHOLD[sensitivity]) {
    reasons.push(
      `content score ${score} (${[...content.reasons, ...(input.token === "missing" ? ["no start-time token"] : [])].join("; ")})`,
    );
  }
  return reasons;
}

export function formSecret(previewSecret: Buffer): Buffer {
  return createHmac("sha256", previewSecret).update("sitewright-forms").digest();
}
