import { randomBytes } from "node:crypto";

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-";

/** Length of every public id (the API contract: opaque 21-character strings). */
export const ID_LENGTH = 21;

/** A new opaque 21-character id from 126 random bits (url-safe alphabet of 64 symbols). */
export function newId(): string {
  const bytes = randomBytes(ID_LENGTH);
  let id = "";
  for (let i = 0; i < ID_LENGTH; i++) id += alphabet[bytes[i]! & 63];
  return id;
}

/** True for strings shaped like an id; lookups of anything else are answered `not_found` without a query. */
export function isIdShaped(value: string): boolean {
  return value.length === ID_LENGTH && /^[0-9A-Za-z_-]+$/.test(value);
}
