// AES-256-GCM encryption of secret values under the platform's secrets key (SITEWRIGHT_SECRETS_KEY).
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/** What SITEWRIGHT_SECRETS_KEY must be, for error messages. */
export const SECRETS_KEY_FORMAT = "32 random bytes, base64 (44 characters) or hex (64 characters)";

/** A new random secrets key in the accepted form (base64). */
export const generateSecretsKey = (): string => randomBytes(32).toString("base64");

/** The 32 key bytes of `text` (base64, base64url or hex), or undefined when it is not such a key. */
export function parseSecretsKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-f]{64}$/i.test(trimmed)) return Buffer.from(trimmed, "hex");
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) return undefined;
  const bytes = Buffer.from(trimmed.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  return bytes.length === 32 ? bytes : undefined;
}

/** Thrown when a stored value does not decrypt: the key differs from the one it was set under. */
export class SecretsKeyMismatch extends Error {
  constructor(readonly secretName: string) {
    super(
      `Secret '${secretName}' cannot be decrypted with the configured SITEWRIGHT_SECRETS_KEY: it was set under another key. Restore the key it was set under, or set the secret again.`,
    );
    this.name = "SecretsKeyMismatch";
  }
}

const aad = (websiteId: string, name: string) => Buffer.from(`${websiteId}/${name}`);

/** Encrypts `value` for the secret `name` of `websiteId`: `v1.<iv>.<ciphertext and tag>` (base64url). */
export function encryptSecret(key: Buffer, websiteId: string, name: string, value: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(aad(websiteId, name));
  const body = Buffer.concat([cipher.update(value, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `v1.${iv.toString("base64url")}.${body.toString("base64url")}`;
}

/** Decrypts what encryptSecret made; a wrong key (or a row moved to another website or name) throws SecretsKeyMismatch. */
export function decryptSecret(key: Buffer, websiteId: string, name: string, stored: string): string {
  const [version, iv, body] = stored.split(".");
  if (version !== "v1" || !iv || !body) throw new SecretsKeyMismatch(name);
  const bytes = Buffer.from(body, "base64url");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    decipher.setAAD(aad(websiteId, name));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString(
      "utf8",
    );
  } catch {
    throw new SecretsKeyMismatch(name);
  }
}
