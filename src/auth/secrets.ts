import { hash, randomBytes } from "node:crypto";

/** A new API key secret: 32 random bytes as 43 base64url characters. Returned once, never stored. */
export function newSecret(): string {
  return randomBytes(32).toString("base64url");
}

/** The only form in which a secret is stored: its SHA-256, hex (one-shot `hash`: no Hash object per request). */
export function hashSecret(secret: string): string {
  return hash("sha256", secret, "hex");
}

export function isSecretShaped(value: string): boolean {
  return value.length === 43 && /^[A-Za-z0-9_-]+$/.test(value);
}
