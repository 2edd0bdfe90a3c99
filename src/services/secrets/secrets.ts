// The secrets of a website: set (create or replace), list by name, delete, and the decrypted `env` of its
// server functions. Values only ever leave this module decrypted into a function's `env`.
import type { Stores } from "../../db/stores/index.ts";
import { ApiError } from "../../kernel/errors.ts";
import { decryptSecret, encryptSecret, parseSecretsKey } from "./crypto.ts";

/** What a secret's name must match: an environment variable's name, upper case. */
export const SECRET_NAME = /^[A-Z_][A-Z0-9_]{0,63}$/;
/** Largest value in bytes (UTF-8). */
export const MAX_SECRET_BYTES = 8 * 1024;
/** Most secrets per website. */
export const MAX_SECRETS = 100;

/** The configured key's bytes; a platform without a usable key refuses with an `internal` error saying so. */
export function secretsKey(configured: string | undefined): Buffer {
  const key = configured === undefined ? undefined : parseSecretsKey(configured);
  if (!key) {
    throw new ApiError(
      "internal",
      "This server has no secrets key (SITEWRIGHT_SECRETS_KEY), so secrets cannot be stored or read.",
      { suggestion: "Ask the server's operator to set SITEWRIGHT_SECRETS_KEY; see docs/secrets.md." },
    );
  }
  return key;
}

/** Creates or replaces the secret; returns the stored row (no value). */
export async function setSecret(
  stores: Stores,
  key: Buffer,
  websiteId: string,
  name: string,
  value: string,
  now: number,
) {
  if (Buffer.byteLength(value, "utf8") > MAX_SECRET_BYTES) {
    throw new ApiError("validation", `value is longer than ${MAX_SECRET_BYTES} bytes (UTF-8).`, {
      suggestion: "Store a shorter value; secrets hold keys and tokens, not files.",
    });
  }
  const existing = await stores.secrets.get(websiteId, name);
  if (!existing && (await stores.secrets.countOfWebsite(websiteId)) >= MAX_SECRETS) {
    throw new ApiError("conflict", `The website already has ${MAX_SECRETS} secrets, the most it may have.`, {
      suggestion: "Delete one you no longer need with {{secrets.delete}}, listed by {{secrets.list}}.",
    });
  }
  const ciphertext = encryptSecret(key, websiteId, name, value);
  return stores.secrets.put({ websiteId, name, ciphertext, createdAt: now, updatedAt: now });
}

/**
 * Every secret of the website decrypted, by name: a server function's `env`. `key` is the configured key's bytes,
 * or its text (checked only when the website has secrets). A wrong key throws SecretsKeyMismatch.
 */
export async function secretEnv(
  stores: Stores,
  key: Buffer | string | undefined,
  websiteId: string,
): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  const rows = await stores.secrets.ofWebsite(websiteId);
  if (rows.length === 0) return env;
  const bytes = Buffer.isBuffer(key) ? key : secretsKey(key);
  for (const row of rows) env[row.name] = decryptSecret(bytes, websiteId, row.name, row.ciphertext);
  return env;
}
