import { randomBytes } from "node:crypto";

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-";

/** Length of every public id (the API contract: opaque 21-character strings). */
export const ID_LENGTH = 21;

/** Random bytes drawn from the CSPRNG 128 ids at a time (one call instead of one per id); each byte is used once. */
const POOL_IDS = 128;
let pool = Buffer.alloc(0);
let poolOffset = 0;

/** A new opaque 21-character id from 126 random bits (url-safe alphabet of 64 symbols). */
export function newId(): string {
  if (poolOffset + ID_LENGTH > pool.length) {
    pool = randomBytes(ID_LENGTH * POOL_IDS);
    poolOffset = 0;
  }
  let id = "";
  for (let i = poolOffset; i < poolOffset + ID_LENGTH; i++) id += alphabet[pool[i]! & 63];
  poolOffset += ID_LENGTH;
  return id;
}

/** True for strings shaped like an id; lookups of anything else are answered `not_found` without a query. */
export function isIdShaped(value: string): boolean {
  return value.length === ID_LENGTH && /^[0-9A-Za-z_-]+$/.test(value);
}
