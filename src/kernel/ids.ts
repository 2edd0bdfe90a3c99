import { randomBytes } from "node:crypto";

/**
 * The 64 url-safe symbols in byte order, so ids compare by their digits both in JavaScript and in the databases
 * (byte-wise: SQLite, and PostgreSQL's `COLLATE "C"` id columns).
 */
const alphabet = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz";

/** Length of every public id (the API contract: opaque 21-character strings). */
export const ID_LENGTH = 21;

/** Leading symbols holding the creation time: 48 bits of Unix milliseconds (until the year 10889). */
const TIME_SYMBOLS = 8;
/** Then a per-process sequence within the millisecond: 18 bits, 262,144 ids a millisecond. */
const SEQUENCE_SYMBOLS = 3;
const SEQUENCE_LIMIT = 64 ** SEQUENCE_SYMBOLS;
/** The rest is fresh randomness in every id: 60 bits. */
const RANDOM_SYMBOLS = ID_LENGTH - TIME_SYMBOLS - SEQUENCE_SYMBOLS;

/** Random bytes drawn from the CSPRNG 128 ids at a time (one call instead of one per id); each byte is used once. */
const POOL_BYTES = RANDOM_SYMBOLS * 128;
let pool = Buffer.alloc(0);
let poolOffset = 0;

let lastMs = -1;
let sequence = 0;

/** `value` as `symbols` digits of the alphabet, most significant first. */
function digits(value: number, symbols: number): string {
  let out = "";
  for (let i = symbols - 1; i >= 0; i--) out += alphabet[Math.floor(value / 2 ** (6 * i)) % 64];
  return out;
}

/**
 * A new opaque 21-character id (url-safe alphabet of 64 symbols) that sorts after every id this process made
 * before: 8 symbols of the millisecond, 3 of a sequence within it, then 10 random (60 bits). So rows listed by
 * time, then id, come back in the order they were created, even within one millisecond. When the clock goes back,
 * ids keep counting from the last millisecond used.
 */
export function newId(): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    sequence = 0;
  } else if (++sequence === SEQUENCE_LIMIT) {
    lastMs++;
    sequence = 0;
  }
  if (poolOffset + RANDOM_SYMBOLS > pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolOffset = 0;
  }
  let id = digits(lastMs, TIME_SYMBOLS) + digits(sequence, SEQUENCE_SYMBOLS);
  for (let i = poolOffset; i < poolOffset + RANDOM_SYMBOLS; i++) id += alphabet[pool[i]! & 63];
  poolOffset += RANDOM_SYMBOLS;
  return id;
}

/** True for strings shaped like an id; lookups of anything else are answered `not_found` without a query. */
export function isIdShaped(value: string): boolean {
  return value.length === ID_LENGTH && /^[0-9A-Za-z_-]+$/.test(value);
}
