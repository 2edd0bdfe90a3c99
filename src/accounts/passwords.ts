import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";

/** Shortest accepted password. */
export const MIN_PASSWORD_LENGTH = 10;
/** Longest accepted password (scrypt's cost is per byte; a cap keeps one sign-in cheap). */
export const MAX_PASSWORD_LENGTH = 1024;

/**
 * The default scrypt cost, log2 of N: N = 2^15 (32 MiB, OWASP's floor). The platform's `passwordCost` sets it
 * (10..20; the test suite lowers it for speed). Each hash records its N, so changing it never breaks existing
 * passwords.
 */
export const DEFAULT_PASSWORD_COST = 15;
const paramsOf = (cost: number) => ({
  N: 2 ** Math.min(20, Math.max(10, Math.round(cost) || 15)),
  r: 8,
  p: 1,
});
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, options: ScryptOptions, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize("NFKC"),
      salt,
      length,
      { ...options, maxmem: 256 * 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

/**
 * Hashes a password with scrypt and a fresh 16-byte salt. The result names its parameters:
 * `scrypt$N$r$p$<salt base64url>$<key base64url>`, so they can be raised later without breaking old hashes.
 */
export async function hashPassword(password: string, cost = DEFAULT_PASSWORD_COST): Promise<string> {
  const salt = randomBytes(16);
  const params = paramsOf(cost);
  const key = await derive(password, salt, params, KEY_LENGTH);
  return ["scrypt", params.N, params.r, params.p, salt.toString("base64url"), key.toString("base64url")].join(
    "$",
  );
}

/** True when `password` matches `encoded` (compared in constant time); false for any malformed hash. */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const parts = encoded.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every((n) => Number.isSafeInteger(n) && n > 0)) return false;
  const salt = Buffer.from(parts[4]!, "base64url");
  const expected = Buffer.from(parts[5]!, "base64url");
  if (salt.length === 0 || expected.length === 0) return false;
  const actual = await derive(password, salt, { N, r, p }, expected.length);
  return timingSafeEqual(actual, expected);
}

/** One throwaway hash per cost, made on first use. */
const dummies = new Map<number, Promise<string>>();

/**
 * Spends the time of one verification at `cost` (the platform's), so an unknown email answers as slowly as a
 * wrong password.
 */
export async function verifyNothing(password: string, cost = DEFAULT_PASSWORD_COST): Promise<false> {
  if (!dummies.has(cost)) dummies.set(cost, hashPassword(randomBytes(16).toString("hex"), cost));
  await verifyPassword(password, await dummies.get(cost)!);
  return false;
}
